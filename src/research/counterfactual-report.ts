import { bootstrapMeans, type Interval } from '../tournament/bootstrap.js';
import type { GameOutcome } from './outcome.js';
import { wilson } from './position-stats.js';
import type { RunResult } from './counterfactual.js';

/** One seat across the runs, beside what it did in the original game. */
export type SeatDistribution = {
  player_id: string;
  agent: string;
  original: { placement: number; lives: number; alive: boolean } | null;
  /** How many runs ended with the seat in each place (index 0: first). */
  placements: number[];
  /** Mean placement and lives kept: 95 % percentile-bootstrap intervals over the runs. */
  mean_placement: Interval | null;
  /** Shares of runs won and survived: 95 % Wilson intervals (honest at 0 or every run, where a bootstrap collapses to a point). */
  win_rate: Interval | null;
  survival: Interval | null;
  mean_lives: Interval | null;
};

/** Who went out by whose hand, how often across the runs (`share`: 95 % Wilson), and whether it happened in the original. */
export type EliminationShare = { player_id: string; by: string | null; runs: number; share: Interval | null; in_original: boolean };

export type CounterfactualReport = {
  parent_game_id: string;
  /** The fork point: the seq of the decision the runs diverge from, and its round. */
  at: { seq: number; round: number };
  agents: string[];
  runs: number;
  reseed_from: number;
  original: GameOutcome | null;
  seats: SeatDistribution[];
  eliminations: EliminationShare[];
  /** Each run: its reseed, where it is stored (null: in memory) and how it ended. */
  results: RunResult[];
};

export type ReportContext = Omit<CounterfactualReport, 'original' | 'seats' | 'eliminations' | 'results'>;

const pairKey = (victim: string, by: string | null) => `${victim}<${by ?? ''}`;

/**
 * The outcome distribution of the runs beside the original's: per seat, the placement histogram
 * and 95 % intervals: percentile-bootstrap (bootstrapMeans, seeded by reseed_from, so the same
 * runs give the same intervals) for the mean placement and the lives kept, Wilson for the shares of
 * runs won and survived; and the share of runs in which each seat was eliminated by each other
 * one (Wilson). Runs are independent (each its own reseed), so no clustering is needed; a share of
 * 0 or every run gets a Wilson interval reaching inward (0 of 20: 0 %–16 %), where a bootstrap
 * would print the point as its own interval.
 */
export function counterfactualReport(ctx: ReportContext, original: GameOutcome | null, results: readonly RunResult[]): CounterfactualReport {
  const outcomes = results.map((r) => r.outcome);
  const seats = ctx.agents.map((agent, i): SeatDistribution => {
    const player_id = `plr_${i + 1}`;
    const mine = outcomes.map((o) => o.seats.find((s) => s.player_id === player_id)!);
    const placements = new Array<number>(ctx.agents.length).fill(0);
    for (const s of mine) placements[s.placement - 1] = (placements[s.placement - 1] ?? 0) + 1;
    const [mean_placement, mean_lives] = bootstrapMeans([mine.map((s) => s.placement), mine.map((s) => s.lives)], ctx.reseed_from, `counterfactual:${player_id}`);
    const win_rate = wilson(mine.filter((s) => s.placement === 1).length, mine.length);
    const survival = wilson(mine.filter((s) => s.alive).length, mine.length);
    const o = original?.seats.find((s) => s.player_id === player_id);
    return { player_id, agent, original: o ? { placement: o.placement, lives: o.lives, alive: o.alive } : null, placements, mean_placement: mean_placement ?? null, win_rate: win_rate ?? null, survival: survival ?? null, mean_lives: mean_lives ?? null };
  });
  const pairs = new Map<string, { player_id: string; by: string | null }>();
  for (const e of [...(original?.eliminations ?? []), ...outcomes.flatMap((o) => o.eliminations)]) pairs.set(pairKey(e.player_id, e.by), { player_id: e.player_id, by: e.by });
  const originalPairs = new Set((original?.eliminations ?? []).map((e) => pairKey(e.player_id, e.by)));
  const eliminations = [...pairs.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, p]): EliminationShare => {
      const runs = outcomes.filter((o) => o.eliminations.some((e) => pairKey(e.player_id, e.by) === key)).length;
      return { ...p, runs, share: wilson(runs, outcomes.length), in_original: originalPairs.has(key) };
    });
  return { ...ctx, original, seats, eliminations, results: [...results] };
}
