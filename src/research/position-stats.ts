import type { Interval } from '../tournament/bootstrap.js';

/** The normal quantile of a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * The 95 % Wilson score interval of a proportion: `successes` of `n`. Unlike the normal
 * approximation it stays inside [0, 1] and is not degenerate at 0 or n successes (a benchmark where
 * every answer was legal still gets an honest lower bound). Null when n is 0.
 *
 * @example wilson(190, 200) // { value: 0.95, low: 0.910…, high: 0.972… }
 */
export function wilson(successes: number, n: number): Interval | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { value: round6(p), low: round6(Math.max(0, centre - half)), high: round6(Math.min(1, centre + half)) };
}
