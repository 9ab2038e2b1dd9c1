/**
 * How many games a paired statistic needs to tell two agents apart at 95 %: from its mean and
 * standard deviation per unit (a game, or a duplicate group of games played on one deal), the
 * normal approximation n = (1.96·sd/mean)², and an empirical check by subsampling the units.
 * Used by bench/wpa-separation.ts to compare win rate with mean choice WPA.
 */
import { mulberry32 } from '../tournament/group-bootstrap.js';

export type SeparationCheck = { games: number; separated: number };

export type Separation = {
  /** Units measured, and games per unit (2 for a duplicate pair). */
  units: number;
  games_per_unit: number;
  mean: number;
  sd: number;
  /** (1.96·sd/mean)² units, in games: the size at which the expected z reaches 1.96 (≈ 50 % of tournaments separate). */
  games_needed: number | null;
  /** Per subsample size (in games): the share of seeded subsamples whose 95 % interval excludes 0 on the side of the full mean. */
  empirical: SeparationCheck[];
  /** The smallest checked size at which at least half (and 80 %) of the subsamples separate. */
  empirical_games_50: number | null;
  empirical_games_80: number | null;
};

const round = (x: number, d = 6) => Math.round(x * 10 ** d) / 10 ** d;

function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) : 0;
  return { mean, sd };
}

/**
 * The separation figures of one paired statistic. `values[i]` is unit i's difference (first agent
 * minus second); `sizes` the subsample sizes to check, in units (each drawn `draws` times with
 * replacement, seeded by `seed`).
 *
 * @example separation(perGameDiffs, 1, [10, 20, 40]).games_needed
 */
export function separation(values: readonly number[], gamesPerUnit: number, sizes: readonly number[], seed = 1, draws = 400): Separation {
  if (values.length < 2) throw new Error('separation: at least two units');
  const { mean, sd } = meanSd(values);
  const next = mulberry32(seed);
  const sign = Math.sign(mean);
  const empirical = sizes.map((n): SeparationCheck => {
    let hits = 0;
    for (let d = 0; d < draws; d++) {
      const sample = Array.from({ length: n }, () => values[Math.floor(next() * values.length)]!);
      const s = meanSd(sample);
      // A 95 % interval (normal, from the subsample's own sd) that lies on the full mean's side of 0.
      if (sign !== 0 && sign * s.mean - 1.96 * (s.sd / Math.sqrt(n)) > 0) hits++;
    }
    return { games: n * gamesPerUnit, separated: round(hits / draws, 4) };
  });
  const first = (q: number) => empirical.find((c) => c.separated >= q)?.games ?? null;
  return {
    units: values.length,
    games_per_unit: gamesPerUnit,
    mean: round(mean),
    sd: round(sd),
    games_needed: mean === 0 ? null : Math.ceil((1.96 * sd / mean) ** 2 * gamesPerUnit),
    empirical,
    empirical_games_50: first(0.5),
    empirical_games_80: first(0.8),
  };
}
