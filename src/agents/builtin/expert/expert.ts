import type { TurnPlanRequest } from '../../../protocol/index.js';
import type { GameState } from '../../../game/index.js';
import { Rng, seedRng } from '../../../game/rng.js';
import type { Agent } from '../../agent.js';
import { heuristicAgent } from '../heuristics/policy.js';
import { BASE_PERSONALITY, type Personality } from '../heuristics/personality.js';
import { AGGRESSOR } from '../aggressor.js';
import { MANIPULATOR } from '../manipulator.js';
import { TRICKSTER } from '../trickster.js';
import { TURTLE } from '../turtle.js';
import { determinize } from './determinize.js';
import { scoreInWorld } from './rollout.js';

export type ExpertOptions = {
  name: string;
  /** Engine steps (stepInPlace calls) one action decision may spend on its rollouts; at most MAX_BUDGET. */
  budget: number;
  /** Rounds a rollout plays past the current one before it is scored. */
  horizon: number;
};

// Budgets sized so a game stays measurable: at ≈ 7,000 rollout steps per CPU second, `expert`
// spends ≈ 0.3 s a searched decision (≈ 19 sampled worlds), so 200 games against three `balanced`
// take ≈ 30 CPU minutes; `expert:fast` a quarter of that. MAX_BUDGET is the hard cap: 16× `expert`,
// the top of the budget curve (levels.ts names the levels between).
export const EXPERT: ExpertOptions = { name: 'expert', budget: 2_000, horizon: 1 };
export const EXPERT_FAST: ExpertOptions = { name: 'expert:fast', budget: 500, horizon: 1 };
export const MAX_BUDGET = 32_000;

/** The styles whose choice at this window are the expert's candidates (plus passing). */
const STYLES: readonly Personality[] = [BASE_PERSONALITY, AGGRESSOR, TURTLE, MANIPULATOR, TRICKSTER];
const PASS = { selected_action: { kind: 'pass' }, attack_plan: null };

type Answer = { selected_action?: unknown; follow_up?: { selected_action?: unknown } | null; speech_actions?: unknown; secret_plan?: unknown };

/** What makes two candidates different moves: the action, and in compact windows the follow-up. */
const moveKey = (c: unknown): string => {
  const a = c as Answer;
  return JSON.stringify([a.selected_action ?? null, a.follow_up?.selected_action ?? null]);
};

/**
 * The candidate answers at this action window: its core's, passing, and each style's choice; in
 * compact windows (one answer carries the round's plan, talk and up to two actions) also each of
 * those without its follow-up, since the second action is chosen blind and stopping after one is
 * a move of its own. A compact pass keeps the core's plan and talk. Duplicates (same actions) go.
 */
function candidatesAt(r: TurnPlanRequest, own: unknown, seed: string, n: number): unknown[] {
  const compact = r.constraints.compact;
  const mine = own as Answer;
  const options: unknown[] = [own, compact ? { ...PASS, speech_actions: mine.speech_actions ?? [], secret_plan: mine.secret_plan ?? null } : PASS];
  for (const [i, style] of STYLES.entries()) options.push(heuristicAgent(style)(`${seed}:cand:${n}:${i}`).decide(r));
  if (compact) for (const c of options.slice()) if ((c as Answer).follow_up) options.push({ ...(c as object), follow_up: null });
  const seen = new Set<string>();
  return options.filter((c) => {
    const k = moveKey(c);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export type SearchStats = { steps: number; determinizations: number; candidates: number };

/**
 * `expert`: determinized Monte Carlo over its own seat's view. At each action decision it takes
 * the candidate moves of the heuristic styles (and passing), samples hidden worlds consistent with
 * what it sees (determinize), plays every candidate in each world with the same seeded rollout
 * policy (balanced seats, common random numbers) to the end of the next round, and picks the best
 * mean standing. The budget is in engine steps, so a game replays the same whatever the machine.
 * Compact windows are searched the same way (their action answer is the round's one decision).
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
        if (r.window !== 'action' || r.constraints.reprompt) return own;
        n++;
        const candidates = candidatesAt(r, own, seed, n);
        if (candidates.length < 2) return own;
        const totals = candidates.map(() => 0);
        const spent = { steps: 0 };
        let worlds = 0;
        // Stop when one more world would likely overrun the budget (rollouts cost about the same).
        while (spent.steps < budget) {
          const before = spent.steps;
          let world: GameState;
          try {
            world = determinize(r, rng, `${seed}:world:${n}:${worlds}`);
          } catch {
            break;
          }
          let scored: (number | null)[];
          try {
            scored = scoreInWorld(world, r, candidates, `${seed}:roll:${n}:${worlds}`, o.horizon, budget, spent);
          } catch {
            // A sampled world the engine cannot play on (an inconsistent guess): skip it.
            scored = candidates.map(() => 0);
          }
          worlds++;
          scored.forEach((v, i) => (totals[i]! += v ?? -1e6));
          const per = spent.steps - before;
          if (spent.steps + per > budget) break;
        }
        onSearch?.({ steps: spent.steps, determinizations: worlds, candidates: candidates.length });
        let best = 0;
        for (let i = 1; i < totals.length; i++) if (totals[i]! > totals[best]!) best = i;
        return candidates[best];
      },
    };
  };
}

