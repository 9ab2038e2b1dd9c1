import {
  awaiting,
  initialState,
  requestFor,
  stepInPlace,
  type GameState,
  type RulesInput,
} from '../game/index.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import { createAgent, type AgentName } from '../agents/builtin/index.js';
import { withUnknownFields } from './forward-compat-check.js';
import type { CaseName, Sample } from './invocation.js';

/** Who plays the games the requests are taken from. */
const LINEUP: readonly AgentName[] = ['balanced', 'aggressor', 'manipulator', 'trickster'];
/** Games to try before giving up on finding every window (two always suffice in practice). */
const MAX_GAMES = 25;

/** A wrong answer the engine rejects with a reprompt: a card nobody holds. */
export const BAD_ACTION = {
  selected_action: { kind: 'play_card', payload: { card_id: 'card_not_held' } },
} as const;

const hasAttack = (r: TurnPlanRequest) =>
  r.legal_actions.some((a) => a.kind === 'play_card' && a.attack);
const settled = (r: TurnPlanRequest) => r.turn >= 2 && r.constraints.reprompt === null;

/** Which request each window case takes: past the first round, and for actions one where an attack is possible. */
const WANTED: ReadonlyArray<{
  case: CaseName;
  compact: boolean;
  take: (r: TurnPlanRequest) => boolean;
}> = [
  { case: 'intent', compact: false, take: (r) => r.window === 'intent' && settled(r) },
  { case: 'talk', compact: false, take: (r) => r.window === 'talk' && settled(r) },
  {
    case: 'action',
    compact: false,
    take: (r) => r.window === 'action' && settled(r) && hasAttack(r),
  },
  {
    case: 'reaction',
    compact: false,
    take: (r) => r.window === 'reaction' && r.constraints.reprompt === null,
  },
  { case: 'reflect', compact: false, take: (r) => r.window === 'reflect' && settled(r) },
  {
    case: 'compact',
    compact: true,
    take: (r) => r.window === 'action' && settled(r) && hasAttack(r),
  },
];

/**
 * Plays one game of built-in agents (the sampling line-up) from `seed` and shows each request, with
 * the state that asks it, to `visit` — until `visit` returns false or the game ends.
 */
export function walkSamplingGame(seed: number, compact: boolean, visit: (request: TurnPlanRequest, state: GameState) => boolean): void {
  const rules: RulesInput = compact ? { windows: 'compact' } : {};
  const state = initialState({ seats: LINEUP.length, rules }, seed);
  const agents = LINEUP.map((name, i) => createAgent(name, seed, i));
  stepInPlace(state, { type: 'start' });
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const player = next.seats[0]!;
    const request = requestFor(state, player);
    if (!visit(request, state)) return;
    const decision = agents[Number(player.slice(4)) - 1]!.decide(request);
    const res = stepInPlace(state, { type: 'decision', player_id: player, window: next.window, decision });
    if (!res.ok) throw new Error(`sampling game refused ${player}'s ${next.window}: ${res.rejection.message}`);
  }
}

/** Plays built-in games from `seed` on and keeps the first request (with its state) each case wants. */
function harvest(seed: number, compact: boolean, found: Map<CaseName, Sample>): void {
  const wanted = WANTED.filter((w) => w.compact === compact);
  const missing = () => wanted.some((w) => !found.has(w.case));
  for (let g = 0; g < MAX_GAMES && missing(); g++)
    walkSamplingGame(seed + g, compact, (request, state) => {
      for (const w of wanted) {
        if (!found.has(w.case) && w.take(request)) found.set(w.case, { case: w.case, state: structuredClone(state), request: structuredClone(request) });
      }
      return missing();
    });
}

/** The real reprompt that follows a rejected action: the engine fed a bad answer on a copy of the state. */
export function repromptOf(action: Sample): Sample {
  const state = structuredClone(action.state);
  const id = action.request.player_id;
  const res = stepInPlace(state, {
    type: 'decision',
    player_id: id,
    window: 'action',
    decision: BAD_ACTION,
  });
  const next = awaiting(state);
  if (!res.ok || !next?.seats.includes(id))
    throw new Error('the engine did not ask again after a rejected action');
  const request = requestFor(state, id);
  if (!request.constraints.reprompt)
    throw new Error('the request after a rejected action has no constraints.reprompt');
  return { case: 'reprompt', state, request };
}

/**
 * Every conformance case's request, taken from games played by built-in agents from `seed` on:
 * one per window (full rules, and a compact action), the reprompt after a rejected action, the
 * action with unknown fields added, the action again (determinism) and the intent again (for the
 * memory round trip). Deterministic in `seed`.
 *
 * @example collectSamples(1).map((s) => s.case) // ['intent', 'talk', …, 'memory']
 */
export function collectSamples(seed: number): Sample[] {
  const found = new Map<CaseName, Sample>();
  harvest(seed, false, found);
  harvest(seed, true, found);
  const missing = WANTED.filter((w) => !found.has(w.case)).map((w) => w.case);
  if (missing.length)
    throw new Error(`no ${missing.join(', ')} request in ${MAX_GAMES} games from seed ${seed}`);
  const get = (c: CaseName) => found.get(c)!;
  const action = get('action');
  return [
    ...WANTED.map((w) => get(w.case)),
    repromptOf(action),
    { case: 'extra_fields', state: action.state, request: withUnknownFields(action.request) },
    { case: 'determinism', state: action.state, request: action.request },
    { case: 'memory', state: get('intent').state, request: get('intent').request },
  ];
}
