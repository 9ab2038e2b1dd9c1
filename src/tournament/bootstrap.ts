import { deriveSeed } from './seeds.js';

/** Resamples per interval: 1,000 keeps the 2.5 % and 97.5 % percentiles stable to about ±0.01. */
export const DEFAULT_RESAMPLES = 1000;

export type Interval = { value: number; low: number; high: number };

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * 95 % percentile-bootstrap intervals of the means of paired series (`series[s][i]` all describe
 * observation i): each of `resamples` resamples draws n indices with replacement and averages
 * every series over the same indices. Seeded by `seed` and `label` (mulberry32, inlined because
 * this loop is the standings' hot path: ~n × resamples draws), so the same data, seed and label
 * give the same intervals on every platform. Null for empty series; figures rounded to 6 decimals.
 *
 * @example bootstrapMeans([[1, 0, 1, 1], [1, 2, 1, 1]], 7, 'a') // [win-rate interval, placement interval]
 */
export function bootstrapMeans(series: readonly (readonly number[])[], seed: number, label: string, resamples = DEFAULT_RESAMPLES): (Interval | null)[] {
  const n = series[0]?.length ?? 0;
  if (n === 0 || resamples < 1) return series.map(() => null);
  if (series.some((xs) => xs.length !== n)) throw new Error('bootstrapMeans: paired series of different lengths');
  const means = series.map(() => new Float64Array(resamples));
  const sums = new Float64Array(series.length);
  let state = deriveSeed(seed, 'bootstrap', label) | 0;
  for (let b = 0; b < resamples; b++) {
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      const j = Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
      for (let s = 0; s < series.length; s++) sums[s]! += series[s]![j]!;
    }
    for (let s = 0; s < series.length; s++) means[s]![b] = sums[s]! / n;
  }
  return series.map((xs, s) => {
    const value = xs.reduce((a, x) => a + x, 0) / n;
    const sorted = means[s]!.sort();
    const at = (q: number) => sorted[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))]!;
    return { value: round6(value), low: round6(Math.min(value, at(0.025))), high: round6(Math.max(value, at(0.975))) };
  });
}

/** The interval of one series' mean (see {@link bootstrapMeans}). */
export const bootstrapMean = (xs: readonly number[], seed: number, label: string, resamples = DEFAULT_RESAMPLES): Interval | null =>
  bootstrapMeans([xs], seed, label, resamples)[0]!;
