import { bootstrapMean, type Interval } from '../tournament/bootstrap.js';
import type { PositionResult } from './position-eval.js';
import { REPORT_SEED } from './position-report.js';

/** The normal-test factor behind the smallest detectable difference: 1.96 (two-sided 95 %) + 0.84 (80 % power). */
const DETECT = 2.8;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Two agents on the same positions: agent A's regret minus agent B's, position by position. */
export type PairedComparison = {
  agent: string;
  against: string;
  positions: number;
  /** Mean of A's regret − B's over the positions, 95 % percentile bootstrap over positions (fixed seed). Negative: A loses less. */
  mean_difference: Interval;
  /** The interval lies wholly on one side of 0: the bank tells the two apart at 95 %. */
  separated: boolean;
  /** Which agent loses less, when separated (null otherwise). */
  better: string | null;
  /** Standard deviation of the per-position differences. */
  sd: number;
  /** The smallest mean difference this many positions detect with 80 % power at 95 %: 2.8 · sd / √n. */
  detectable: number;
};

/**
 * Compares two agents' answers to the same bank: per position the difference of their regrets
 * (both scored in the same worlds with the same rollout seeds, so the bank's noise cancels), its
 * mean with a 95 % bootstrap interval (seeded by REPORT_SEED: the same results give the same
 * interval), whether that interval excludes 0, and the bank's power for this pair. Throws when
 * the results are not of the same positions in the same order (a caller bug).
 *
 * @example comparePaired('balanced', b, 'random', r).separated // true
 */
export function comparePaired(agent: string, a: readonly PositionResult[], against: string, b: readonly PositionResult[]): PairedComparison {
  if (a.length === 0 || a.length !== b.length || a.some((r, i) => r.position_id !== b[i]!.position_id)) throw new Error('comparePaired: the two agents answered different positions');
  const diffs = a.map((r, i) => r.regret - b[i]!.regret);
  const n = diffs.length;
  const mean = diffs.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(diffs.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : 0;
  const interval = bootstrapMean(diffs, REPORT_SEED, 'positions:paired')!;
  const separated = interval.low > 0 || interval.high < 0;
  return {
    agent,
    against,
    positions: n,
    mean_difference: interval,
    separated,
    better: separated ? (interval.high < 0 ? agent : against) : null,
    sd: round6(sd),
    detectable: round6((DETECT * sd) / Math.sqrt(n)),
  };
}
