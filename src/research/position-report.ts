import { bootstrapMean, type Interval } from '../tournament/bootstrap.js';
import type { PositionResult } from './position-eval.js';
import { wilson } from './position-stats.js';

/** The bootstrap's seed: fixed, so the same results always give the same intervals. */
export const REPORT_SEED = 1;

export type PositionsReport = {
  agent: string;
  /** The bank's file name, and how many positions were asked. */
  bank: string;
  positions: number;
  answered: number;
  /** Answers the engine would refuse. */
  illegal: number;
  /** No answer: the agent failed, timed out or sent nothing. */
  failed: number;
  /** Mean of best − the exact answer's value (expert rollouts in the bank's worlds), 95 % percentile bootstrap. */
  mean_regret: Interval | null;
  /** The same for the move made as the bank plays it (its fixed framing): what bank v1's reports called mean regret. */
  mean_move_regret: Interval | null;
  /** Share of positions where the answer was the expert's best move, 95 % Wilson. */
  agreement: Interval | null;
  /** Share of positions answered legally, 95 % Wilson. */
  legality: Interval | null;
  /** Why answers failed or were refused, by code, most frequent first. */
  problems: Array<{ code: string; count: number }>;
  results: PositionResult[];
};

/**
 * The benchmark's figures over one agent's answers: mean regret with a percentile-bootstrap
 * interval (bootstrapMean, seeded by REPORT_SEED), agreement with the expert and legality as
 * proportions with Wilson intervals. A pure function of the results: the same answers give the
 * same report.
 *
 * @example positionsReport('balanced', 'bank-v2.jsonl', results).mean_regret // { value: 1.8, low: 1.5, high: 2.1 }
 */
export function positionsReport(agent: string, bank: string, results: readonly PositionResult[]): PositionsReport {
  const n = results.length;
  const legal = results.filter((r) => r.legal).length;
  const answered = results.filter((r) => r.answered).length;
  const counts = new Map<string, number>();
  for (const r of results) if (r.problem) counts.set(r.problem, (counts.get(r.problem) ?? 0) + 1);
  return {
    agent,
    bank,
    positions: n,
    answered,
    illegal: answered - legal,
    failed: n - answered,
    mean_regret: bootstrapMean(results.map((r) => r.regret), REPORT_SEED, 'positions:regret'),
    mean_move_regret: bootstrapMean(results.map((r) => r.move_regret), REPORT_SEED, 'positions:move_regret'),
    agreement: wilson(results.filter((r) => r.agrees).length, n),
    legality: wilson(legal, n),
    problems: [...counts].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    results: [...results],
  };
}
