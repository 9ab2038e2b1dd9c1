import type { TurnPlanRequest } from '../../../protocol/index.js';
import { answerInPlace, awaiting, requestFor, type GameState } from '../../../game/index.js';
import { cloneState } from '../../../game/clone.js';
import type { Agent } from '../../agent.js';
import { heuristicAgent } from '../heuristics/policy.js';
import { BASE_PERSONALITY } from '../heuristics/personality.js';

/** Standing, as the expert scores a rollout's end: lives and resolve, eliminated seats far below. */
const standing = (s: GameState, id: string): number => {
  const p = s.players.find((x) => x.player_id === id)!;
  return p.alive ? p.lives * s.rules.resolve_baseline + p.resolve : -s.rules.resolve_baseline;
};

/** My standing against the table's: the mean opponent and, doubly, the strongest one. */
export function rolloutValue(s: GameState, me: string): number {
  const mine = standing(s, me);
  const others = s.players.filter((p) => p.player_id !== me).map((p) => standing(s, p.player_id));
  const mean = others.reduce((a, b) => a + b, 0) / Math.max(1, others.length);
  return mine - 0.5 * mean - 0.5 * Math.max(...others);
}

/**
 * Rollout answers that need no projection: the secret plan only feeds reveals and predictions, and
 * table talk moves the ledger slowly, so inside the expert's model every seat plans to defend and
 * stays quiet. Skipping their requests and policies halves a rollout's cost; actions and reactions,
 * which decide the score, still come from the balanced policy over each seat's own view.
 */
const QUICK: Partial<Record<string, unknown>> = {
  intent: { tactical_intent: 'defend', emotional_intent: null },
  talk: { speech_actions: [] },
};

/** Plays balanced seats on `s` until `lastTurn` ends, the game ends, or `cap` steps; returns the steps. */
export function rollout(s: GameState, seed: string, lastTurn: number, cap: number): number {
  const policies = new Map<string, Agent>();
  let steps = 0;
  for (let next = awaiting(s); next && steps < cap && s.turn <= lastTurn; next = awaiting(s)) {
    const seat = next.seats[0]!;
    let decision: unknown = QUICK[next.window];
    if (decision === undefined) {
      let agent = policies.get(seat);
      if (!agent) policies.set(seat, (agent = heuristicAgent(BASE_PERSONALITY)(`${seed}:${seat}`)));
      try {
        decision = agent.decide(requestFor(s, seat));
      } catch {
        decision = null;
      }
    }
    const res = answerInPlace(s, seat, next.window, decision);
    steps++;
    if (!res.ok) break;
  }
  return steps;
}

/** Engine steps spent so far, counted in place (a world that throws midway still counts what it spent). */
export type StepCount = { steps: number };

/**
 * Plays every candidate action answer in a copy of one sampled world, then the same seeded rollout
 * (common random numbers: the candidates differ only by the answer) to the end of round
 * `world.turn + horizon`, and scores each end for the request's seat (null: the engine refused
 * the candidate there). Stops rolling out once `spent` reaches `budget`. May throw on a world the
 * engine cannot play on (the caller skips it).
 *
 * @example scoreInWorld(determinize(r, rng, 'w0'), r, [pass, attack], 'roll:0', 1, 2_000, { steps: 0 })
 */
export function scoreInWorld(world: GameState, r: TurnPlanRequest, candidates: readonly unknown[], rollSeed: string, horizon: number, budget: number, spent: StepCount): (number | null)[] {
  return candidates.map((c) => {
    const s = cloneState(world);
    const res = answerInPlace(s, r.player_id, 'action', c);
    spent.steps++;
    if (!res.ok) return null;
    spent.steps += rollout(s, rollSeed, world.turn + horizon, budget - spent.steps);
    return rolloutValue(s, r.player_id);
  });
}
