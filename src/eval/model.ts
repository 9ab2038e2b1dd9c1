import type { Placement } from '../protocol/index.js';
import type { StateView } from '../game/views.js';
import { FEATURES, seatRows, type Form } from './features.js';
import { WINPROB_MODEL } from './winprob-model.js';

/** A trained model: one weight per feature of its form (a conditional logit over the seats). */
export type Weights = { features: readonly string[]; weights: readonly number[] };

/** The versioned artifact `npm run train:winprob` writes (src/eval/winprob-model.ts). */
export type ModelArtifact = {
  version: string;
  trained_on: { games: number; seeds: string; states: number };
  models: Record<Form, Weights>;
};

export const MODEL: ModelArtifact = WINPROB_MODEL;

/** Each seat's chance to win, summing to 1 over the table (seats out of the game have 0). */
export type Chances = Record<string, number>;

/** A softmax over the seats' scores, shifted by the largest so no exp overflows. */
export function softmax(scores: readonly number[]): number[] {
  let top = -Infinity;
  for (const s of scores) if (s > top) top = s;
  const ex = scores.map((s) => Math.exp(s - top));
  let sum = 0;
  for (const x of ex) sum += x;
  return ex.map((x) => x / sum);
}

const dot = (w: readonly number[], x: readonly number[]): number => {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i]! * x[i]!;
  return s;
};

/** The winners of an ended game share its whole chance (a tie at the top splits it). */
export function endedChances(ids: readonly string[], placements: readonly Placement[]): Chances {
  const top = placements.filter((p) => p.placement === 1).map((p) => p.player_id);
  return Object.fromEntries(ids.map((id) => [id, top.includes(id) ? 1 / top.length : 0]));
}

/**
 * Each seat's chance to win from a (possibly projected) position. `public` reads `view.world`
 * only — what every spectator is sent — so it is a function of the public view and nothing else;
 * `omniscient` also reads every seat's private view (hands, feelings) and so needs an all-seeing
 * view. An ended game gives its winners everything (`placements` from its `game_ended` event).
 *
 * @example winChances(viewState(state, { role: 'spectator' }), 'public') // { plr_1: 0.41, plr_2: 0.59, plr_3: 0 }
 */
export function winChances(view: StateView, form: Form, placements?: readonly Placement[] | null, model: ModelArtifact = MODEL): Chances {
  const ids = view.world.players.map((p) => p.player_id);
  if (placements && placements.length) return endedChances(ids, placements);
  const m = model.models[form];
  if (m.features.join() !== FEATURES[form].join()) throw new Error(`win-probability model ${model.version} does not match the ${form} features`);
  const { ids: alive, rows } = seatRows(view.world, form === 'public' || form === 'baseline' ? [] : view.private, form);
  const out: Chances = Object.fromEntries(ids.map((id) => [id, 0]));
  if (alive.length === 0) return Object.fromEntries(ids.map((id) => [id, 1 / Math.max(1, ids.length)]));
  const p = softmax(rows.map((x) => dot(m.weights, x)));
  alive.forEach((id, i) => (out[id] = p[i]!));
  return out;
}
