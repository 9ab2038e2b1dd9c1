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
  /** At most this many candidates: the styles' choices first, then the core's other options by its weighing. */
  width: number;
};

/**
 * The search's shape for a step budget. Measured on paired games against three `balanced` (seeds
 * 1–100, docs/agents.md "Third figures"): more worlds of the same one-round rollouts stopped paying
 * past 1× (57.5 % at 1×, 55.5 % at 4×, 200 games each); rolling out further did pay once there were
 * worlds enough to average the longer, noisier rollouts — at 4×, two rounds 72 % and three 81 %
 * where one gave 60 %; at 1× two rounds did not pay (57 % against 60 %). So each doubling of the
 * budget past 1× buys one more round of horizon (2× looks 2 rounds ahead, 4× 3, 16× 5), and the
 * candidate list widens with it (4 at ¼×, 8 at 1×, 16 from 2×), sequential halving dropping the
 * worse half each round so the widest lists still end on a few well-sampled moves.
 */
export function shapeOf(budget: number): { horizon: number; width: number } {
  const horizon = Math.max(1, 1 + Math.round(Math.log2(budget / BASE_BUDGET)));
  const width = Math.min(16, Math.max(4, Math.floor(budget / 250)));
  return { horizon, width };
}

/** The expert's options for a step budget (its name is the spec that asked for it). */
export const expertOptions = (name: string, budget: number): ExpertOptions => ({ name, budget, ...shapeOf(budget) });

// Budgets sized so a game stays measurable: at ≈ 10,000 rollout steps per CPU second, `expert`
// spends ≈ 0.2 s a searched decision, so 200 games against three `balanced` take ≈ 10 CPU minutes;
// `expert:fast` a quarter of that. MAX_BUDGET is the hard cap: 16× `expert`, the top of the budget
// curve (levels.ts names the levels between).
const BASE_BUDGET = 2_000;
export const EXPERT: ExpertOptions = expertOptions('expert', BASE_BUDGET);
export const EXPERT_FAST: ExpertOptions = expertOptions('expert:fast', BASE_BUDGET / 4);
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
 * a move of its own. A compact pass keeps the core's plan and talk. Then the core's `wide` options
 * (best first by its weighing; in compact windows single actions with its plan and talk) until
 * there are `width`. Duplicates (same actions) go.
 */
export function candidatesAt(r: TurnPlanRequest, own: unknown, seed: string, n: number, wide: readonly unknown[], width: number): unknown[] {
  const compact = r.constraints.compact;
  const mine = own as Answer;
  // A compact answer is the whole round's: a move of the expert's own keeps its core's plan and talk.
  const asMine = (move: object): unknown => (compact ? { ...move, speech_actions: mine.speech_actions ?? [], secret_plan: mine.secret_plan ?? null } : move);
  const options: unknown[] = [own, asMine(PASS)];
  for (const [i, style] of STYLES.entries()) options.push(heuristicAgent(style)(`${seed}:cand:${n}:${i}`).decide(r));
  if (compact) for (const c of options.slice()) if ((c as Answer).follow_up) options.push({ ...(c as object), follow_up: null });
  const seen = new Set<string>();
  const out: unknown[] = [];
  const add = (c: unknown) => {
    const k = moveKey(c);
    if (seen.has(k)) return;
    seen.add(k);
    out.push(c);
  };
  for (const c of options) add(c);
  for (const w of wide) {
    if (out.length >= width) break;
    add(asMine(w as object));
  }
  return out;
}

export type SearchStats = { steps: number; determinizations: number; candidates: number };

/**
 * `expert`: determinized Monte Carlo over its own seat's view. At each action decision it takes
 * the candidate moves (the heuristic styles' choices and passing, then its core's other options —
 * every card at every target — by the core's weighing, up to `width`), samples hidden worlds
 * consistent with what it sees (determinize), plays the candidates in each world with the same
 * seeded rollout policy (balanced seats, common random numbers) to the end of round
 * `turn + horizon`, and spends its budget by sequential halving; the best mean standing among the
 * last candidates is its move. The budget is in engine steps, so a game replays the same whatever
 * the machine. Compact windows are searched the same way (their action answer is the round's one
 * decision). Every other window is answered by its balanced core.
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
        const candidates = candidatesAt(r, own, seed, n, core.options(r), o.width);
        if (candidates.length < 2) return own;
        const totals = candidates.map(() => 0);
        const counts = candidates.map(() => 0);
        const spent = { steps: 0 };
        let worlds = 0;
        let alive = candidates.map((_, i) => i);
        const mean = (i: number) => (counts[i]! > 0 ? totals[i]! / counts[i]! : -Infinity);
        // Sequential halving: the budget in equal parts, one per round; each round samples fresh
        // worlds for the candidates still in, then keeps the better half (by mean over every world
        // each was scored in), so the last pair is compared on the most worlds.
        const rounds = Math.max(1, Math.ceil(Math.log2(candidates.length)));
        search: for (let k = 0; k < rounds; k++) {
          const end = Math.floor((budget * (k + 1)) / rounds);
          // Stop when one more world would likely overrun the round's budget (rollouts cost about the same).
          while (spent.steps < end) {
            const before = spent.steps;
            let world: GameState;
            try {
              world = determinize(r, rng, `${seed}:world:${n}:${worlds}`);
            } catch {
              break search;
            }
            let scored: (number | null)[];
            try {
              scored = scoreInWorld(world, r, alive.map((i) => candidates[i]), `${seed}:roll:${n}:${worlds}`, o.horizon, budget, spent);
            } catch {
              // A sampled world the engine cannot play on (an inconsistent guess): skip it.
              scored = alive.map(() => 0);
            }
            worlds++;
            scored.forEach((v, j) => {
              totals[alive[j]!]! += v ?? -1e6;
              counts[alive[j]!]!++;
            });
            const per = spent.steps - before;
            if (spent.steps + per > end) break;
          }
          if (k < rounds - 1) alive = alive.sort((a, b) => mean(b) - mean(a) || a - b).slice(0, Math.ceil(alive.length / 2));
        }
        onSearch?.({ steps: spent.steps, determinizations: worlds, candidates: candidates.length });
        let best = alive[0]!;
        for (const i of alive) if (mean(i) > mean(best)) best = i;
        return candidates[best];
      },
    };
  };
}

