import { determinize } from '../agents/builtin/expert/determinize.js';
import { scoreInWorld } from '../agents/builtin/expert/rollout.js';
import type { GameState } from '../game/index.js';
import { Rng, seedRng } from '../game/rng.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import { legalMoves, moveDecision } from './position-options.js';
import type { PositionOption } from './position-record.js';

/** How a position is scored: worlds sampled per position and the seed they derive from. */
export type ScoringOptions = { worlds: number; seed: number };

export const DEFAULT_WORLDS = 16;

/**
 * Rounds a scoring rollout plays past the current one: one, the 1× expert's horizon. Fixed here
 * rather than read from the expert, whose deeper levels look further: the bank's values (and its
 * bytes) must not move when the expert's search changes.
 */
export const SCORING_HORIZON = 1;

/** A world's rollouts are bounded by the horizon; this only guards against a runaway world. */
export const WORLD_CAP = 1_000_000;

/** Values carry four decimals: enough to order moves, and stable bytes for the shipped bank. */
export const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** One sampled world of a position: its index, the state (null: it could not be built) and its rollout seed. */
export type SeededWorld = { index: number; world: GameState | null; rollSeed: string };

/**
 * The hidden worlds a position is scored in, in order. They share one generator, so world w is
 * only the same world when the ones before it were sampled too: anything that scores an answer
 * "in the bank's worlds" (scoreAnswer) walks this same sequence from the start.
 */
export function* positionWorlds(r: TurnPlanRequest, o: ScoringOptions): Generator<SeededWorld> {
  const base = `positions:${o.seed}:${r.request_id}`;
  const rng = new Rng(seedRng(base));
  for (let w = 0; w < o.worlds; w++) {
    let world: GameState | null = null;
    try {
      world = determinize(r, rng, `${base}:world:${w}`);
    } catch {
      world = null;
    }
    yield { index: w, world, rollSeed: `${base}:roll:${w}` };
  }
}

export type ScoredPosition = { options: PositionOption[]; best: string; worlds: number; kept: number; kept_worlds: number[]; horizon: number };

/**
 * Scores every legal move of an action request with the expert's evaluator: `worlds` hidden worlds
 * sampled from the seat's view alone (determinize), every move played in each with the same seeded
 * balanced rollout to the end of the next round (SCORING_HORIZON), valued by the seat's
 * standing against the table's and averaged. A world the engine cannot play on, or where it
 * refuses one of the moves, is dropped for all of them, so every value averages the same worlds
 * (their indices: `kept_worlds`). Seeded by `seed` and the request id: the same request and seed
 * give the same values. Null when no world could be played or the seat has a single move.
 *
 * @example scorePosition(request, { worlds: 16, seed: 1 })?.best // 'play_card:Overreach>plr_3/lockout'
 */
export function scorePosition(r: TurnPlanRequest, o: ScoringOptions): ScoredPosition | null {
  const moves = legalMoves(r);
  if (moves.length < 2) return null;
  const decisions = moves.map((m) => moveDecision(r, m));
  const totals = moves.map(() => 0);
  const kept: number[] = [];
  for (const { index, world, rollSeed } of positionWorlds(r, o)) {
    if (!world) continue;
    let scores: (number | null)[];
    try {
      scores = scoreInWorld(world, r, decisions, rollSeed, SCORING_HORIZON, WORLD_CAP, { steps: 0 });
    } catch {
      continue;
    }
    if (scores.some((v) => v === null)) continue;
    kept.push(index);
    scores.forEach((v, i) => (totals[i]! += v!));
  }
  if (kept.length === 0) return null;
  const options = moves.map((m, i) => ({ key: m.key, value: round4(totals[i]! / kept.length) }));
  let best = 0;
  for (let i = 1; i < options.length; i++) if (options[i]!.value > options[best]!.value) best = i;
  return { options, best: options[best]!.key, worlds: o.worlds, kept: kept.length, kept_worlds: kept, horizon: SCORING_HORIZON };
}
