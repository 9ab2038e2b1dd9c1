import { DEFAULT_RESAMPLES, type Interval } from './bootstrap.js';
import { groupResamples, interval } from './group-bootstrap.js';

/**
 * Cluster (grouped) bootstrap of figures whose samples are not independent: the samples of one
 * game, or of one duplicate group (every seat rotation of a deal), share their cards and their
 * players' moods, so they move together. Resampling them one by one, as if independent, claims
 * more evidence than the games hold and draws intervals too narrow; resampling whole clusters
 * keeps that dependence (Davison & Hinkley 1997, §3.8; Cameron & Miller 2015).
 */

/** How many distinct clusters the samples come from: the effective sample size's upper bound. */
export const clusterCount = (clusters: readonly string[]): number => new Set(clusters).size;

/**
 * 95 % percentile-bootstrap intervals of the means of paired series (`series[s][i]` all describe
 * sample i, which belongs to cluster `clusters[i]`): each of `resamples` resamples draws as many
 * clusters as there are, with replacement, and averages every series over the samples the drawn
 * clusters bring (a cluster drawn twice counts twice). Seeded by `seed` and `label`, so the same
 * samples give the same intervals. With one sample per cluster this is the ordinary bootstrap
 * (other draws, the same law). Null for empty series; figures rounded to 6 decimals.
 *
 * @example clusterBootstrapMeans([[0, 0, 1, 1]], ['g1', 'g1', 'g2', 'g2'], 0, 'x') // wider than bootstrapMeans([[0, 0, 1, 1]], 0, 'x')
 */
export function clusterBootstrapMeans(
  series: readonly (readonly number[])[],
  clusters: readonly string[],
  seed: number,
  label: string,
  resamples = DEFAULT_RESAMPLES,
): (Interval | null)[] {
  const n = clusters.length;
  if (series.some((xs) => xs.length !== n)) throw new Error('clusterBootstrapMeans: every series needs one value per sample');
  if (n === 0 || resamples < 1) return series.map(() => null);
  const draws = series.map(() => [] as number[]);
  for (const weights of groupResamples(clusters, seed, resamples, label)) {
    let total = 0;
    for (let i = 0; i < n; i++) total += weights[i]!;
    series.forEach((xs, s) => {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += weights[i]! * xs[i]!;
      draws[s]!.push(sum / total);
    });
  }
  return series.map((xs, s) => interval(xs.reduce((a, x) => a + x, 0) / n, draws[s]!));
}

/**
 * The draws of any statistic under the cluster bootstrap: `statistic` gets each resample's weight
 * per sample (how many times its cluster was drawn) and returns the figure, or null when the
 * resample cannot measure it (say, one side of a comparison was not drawn); nulls are left out.
 * For figures that are not plain means (a difference of two means, a ratio).
 *
 * @example interval(delta, clusterDraws(games, 0, 'tilt|balanced', 1000, (w) => meanOf(a, w) - meanOf(b, w)))
 */
export function clusterDraws(clusters: readonly string[], seed: number, label: string, resamples: number, statistic: (weights: Float64Array) => number | null): number[] {
  const out: number[] = [];
  for (const weights of groupResamples(clusters, seed, resamples, label)) {
    const x = statistic(weights);
    if (x !== null && Number.isFinite(x)) out.push(x);
  }
  return out;
}
