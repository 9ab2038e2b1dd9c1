import { prng } from './seeds.js';

/** Resamples per interval: 1,000 keeps the 2.5 % and 97.5 % percentiles stable to about ±0.01. */
export const DEFAULT_RESAMPLES = 1000;

export type Interval = { value: number; low: number; high: number };

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * A 95 % percentile-bootstrap interval of the mean of `xs`: `resamples` resamples with
 * replacement drawn from seedrandom's alea seeded by `seed` and `label`, so the same sample, seed
 * and label give the same interval. Null for an empty sample. Figures rounded to 6 decimals.
 *
 * @example bootstrapMean([1, 0, 1, 1], 7, 'win:a') // { value: 0.75, low: …, high: 1 }
 */
export function bootstrapMean(xs: readonly number[], seed: number, label: string, resamples = DEFAULT_RESAMPLES): Interval | null {
  const n = xs.length;
  if (n === 0) return null;
  const value = xs.reduce((s, x) => s + x, 0) / n;
  const next = prng(seed, 'bootstrap', label);
  const means = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += xs[Math.floor(next() * n)]!;
    means[b] = sum / n;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))]!;
  return { value: round6(value), low: round6(Math.min(value, at(0.025))), high: round6(Math.max(value, at(0.975))) };
}
