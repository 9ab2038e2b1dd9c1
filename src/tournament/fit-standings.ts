import { fitPlackettLuce, type FitGame } from './plackett-luce.js';
import type { GameResult } from './types.js';

/**
 * The rating scale: openskill's, so μ and σ read as they always did. Everyone starts at μ 25 with
 * σ 25/3 (the prior), and θ (log worth) maps to μ = 25 + θ·β√2 with β = 25/6. On that scale a μ gap
 * of β√2 ≈ 5.9 gives e : 1 (73 %) odds that the higher-rated agent finishes above the other in a
 * two-seat game — the low-σ limit of openskill's own Plackett–Luce model, so a rating means the
 * same thing here as there, without depending on the order the games were played in.
 */
export const PRIOR_MU = 25;
export const PRIOR_SIGMA = 25 / 3;
export const SCALE = (25 / 6) * Math.SQRT2;
/** The prior on θ: σ 25/3 on the μ scale is √2 on the θ scale. */
export const PRIOR_SD = PRIOR_SIGMA / SCALE;

export type FittedRating = { mu: number; sigma: number };

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** A result as one string (key, seats, placements): its identity for sorting and hashing. */
export const resultText = (r: GameResult): string => `${r.key}\u0000${r.seats.join('\u0001')}\u0000${r.placements.join(',')}`;

/**
 * Results in a canonical order (by key, then content), so that every sum over them is the same
 * whatever order they arrived in: the fit, and everything derived from it, is order-free bit for bit.
 */
export function canonical(results: readonly GameResult[]): GameResult[] {
  return results
    .map((r) => [resultText(r), r] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, r]) => r);
}

/** Entrants, plus anyone seated in a result but missing from them (kept after them, in first-seen order). */
export function everyone(entrants: readonly string[], results: readonly GameResult[]): string[] {
  const out = [...entrants];
  const seen = new Set(out);
  for (const r of results)
    for (const a of r.seats)
      if (!seen.has(a)) {
        seen.add(a);
        out.push(a);
      }
  return out;
}

/** Results as the fit's games (entrant indices), with optional per-result weights. */
export function fitGames(agents: readonly string[], results: readonly GameResult[], weights?: readonly number[]): FitGame[] {
  const index = new Map(agents.map((a, i) => [a, i]));
  return results.map((r, i) => ({ seats: r.seats.map((a) => index.get(a)!), placements: r.placements, weight: weights?.[i] ?? 1 }));
}

/** The fit over all results: agents (entrants first), results in canonical order, θ and its sd. */
export function fitAll(entrants: readonly string[], results: readonly GameResult[]) {
  const sorted = canonical(results);
  const agents = everyone(entrants, sorted);
  const fit = fitPlackettLuce(agents.length, fitGames(agents, sorted), { priorSd: PRIOR_SD });
  return { agents, sorted, theta: fit.theta, sd: fit.sd };
}

/** μ and σ of one agent from its θ and sd. */
export const ratingOf = (theta: number, sd: number): FittedRating => ({ mu: round6(PRIOR_MU + SCALE * theta), sigma: round6(SCALE * sd) });

/**
 * Every agent's rating from all `results` at once (see plackett-luce.ts): μ is the posterior mode
 * on the scale above, σ its posterior standard deviation from the curvature. Order-free.
 *
 * @example fitRatings(['a', 'b'], [{ key: 'k', round: 0, seats: ['a', 'b'], placements: [1, 2] }]).get('a')!.mu > 25
 */
export function fitRatings(entrants: readonly string[], results: readonly GameResult[]): Map<string, FittedRating> {
  const { agents, theta, sd } = fitAll(entrants, results);
  return new Map(agents.map((a, i) => [a, ratingOf(theta[i]!, sd[i]!)]));
}
