import type { TurnPlanRequest } from '../../../protocol/index.js';
import { answerInPlace, awaiting, requestFor, type GameState } from '../../../game/index.js';
import { Rng, seedRng } from '../../../game/rng.js';
import type { Agent } from '../../agent.js';
import { heuristicAgent } from '../heuristics/policy.js';
import { BASE_PERSONALITY, type Personality } from '../heuristics/personality.js';
import { AGGRESSOR } from '../aggressor.js';
import { MANIPULATOR } from '../manipulator.js';
import { TRICKSTER } from '../trickster.js';
import { TURTLE } from '../turtle.js';
import { determinize } from './determinize.js';

export type ExpertOptions = {
  name: string;
  /** Engine steps (stepInPlace calls) one action decision may spend on its rollouts; at most 20,000. */
  budget: number;
  /** Rounds a rollout plays past the current one before it is scored. */
  horizon: number;
};

// Budgets sized so a game stays measurable: at ≈ 7,000 rollout steps per CPU second, `expert`
// spends ≈ 0.3 s a searched decision (≈ 19 sampled worlds), so 200 games against three `balanced`
// take ≈ 30 CPU minutes; `expert:fast` a quarter of that. MAX_BUDGET is the hard cap.
export const EXPERT: ExpertOptions = { name: 'expert', budget: 2_000, horizon: 1 };
export const EXPERT_FAST: ExpertOptions = { name: 'expert:fast', budget: 500, horizon: 1 };
export const MAX_BUDGET = 20_000;

/** The styles whose choice at this window are the expert's candidates (plus passing). */
const STYLES: readonly Personality[] = [BASE_PERSONALITY, AGGRESSOR, TURTLE, MANIPULATOR, TRICKSTER];
const PASS = { selected_action: { kind: 'pass' }, attack_plan: null };

/** Standing, as the expert scores a rollout's end: lives and resolve, eliminated seats far below. */
const standing = (s: GameState, id: string): number => {
  const p = s.players.find((x) => x.player_id === id)!;
  return p.alive ? p.lives * s.rules.resolve_baseline + p.resolve : -s.rules.resolve_baseline;
};

/** My standing against the table's: the mean opponent and, doubly, the strongest one. */
function value(s: GameState, me: string): number {
  const mine = standing(s, me);
  const others = s.players.filter((p) => p.player_id !== me).map((p) => standing(s, p.player_id));
  const mean = others.reduce((a, b) => a + b, 0) / Math.max(1, others.length);
  return mine - 0.5 * mean - 0.5 * Math.max(...others);
}

export type SearchStats = { steps: number; determinizations: number; candidates: number };

/**
 * `expert`: determinized Monte Carlo over its own seat's view. At each action decision it takes
 * the candidate moves of the heuristic styles (and passing), samples hidden worlds consistent with
 * what it sees (determinize), plays every candidate in each world with the same seeded rollout
 * policy (balanced seats, common random numbers) to the end of the next round, and picks the best
 * mean standing. The budget is in engine steps, so a game replays the same whatever the machine.
 * Every other window is answered by its balanced core.
 */
export function expertAgent(o: ExpertOptions, onSearch?: (s: SearchStats) => void): (seed: string) => Agent {
  const budget = Math.min(o.budget, MAX_BUDGET);
  return (seed) => {
    const core = heuristicAgent(BASE_PERSONALITY)(`${seed}:core`);
    const rng = new Rng(seedRng(`${seed}:search`));
    let n = 0;
    return {
      name: o.name,
      decide(r: TurnPlanRequest): unknown {
        const own = core.decide(r);
        if (r.window !== 'action' || r.constraints.compact || r.constraints.reprompt) return own;
        n++;
        const options = [own, PASS];
        for (const [i, style] of STYLES.entries()) options.push(heuristicAgent(style)(`${seed}:cand:${n}:${i}`).decide(r));
        const seen = new Set<string>();
        const candidates = options.filter((c) => {
          const k = JSON.stringify((c as { selected_action?: unknown }).selected_action ?? null);
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        });
        if (candidates.length < 2) return own;
        const totals = candidates.map(() => 0);
        let steps = 0;
        let worlds = 0;
        // Stop when one more world would likely overrun the budget (rollouts cost about the same).
        while (steps < budget) {
          const before = steps;
          let world: GameState;
          try {
            world = determinize(r, rng, `${seed}:world:${n}:${worlds}`);
          } catch {
            break;
          }
          let scored: (number | null)[];
          try {
            scored = candidates.map((c) => {
              const s = structuredClone(world);
              const res = answerInPlace(s, r.player_id, 'action', c);
              steps++;
              if (!res.ok) return null;
              steps += rollout(s, `${seed}:roll:${n}:${worlds}`, world.turn + o.horizon, budget - steps);
              return value(s, r.player_id);
            });
          } catch {
            // A sampled world the engine cannot play on (an inconsistent guess): skip it.
            scored = candidates.map(() => 0);
          }
          worlds++;
          scored.forEach((v, i) => (totals[i]! += v ?? -1e6));
          const per = steps - before;
          if (steps + per > budget) break;
        }
        onSearch?.({ steps, determinizations: worlds, candidates: candidates.length });
        let best = 0;
        for (let i = 1; i < totals.length; i++) if (totals[i]! > totals[best]!) best = i;
        return candidates[best];
      },
    };
  };
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
function rollout(s: GameState, seed: string, lastTurn: number, cap: number): number {
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
