import { ordinal, rate, rating, type Rating } from 'openskill';
import type { GameResult } from './types.js';

/**
 * openskill options: Plackett–Luce (the library's default model) with `tau: 0`, because bots do
 * not drift between games and a τ > 0 would keep σ from shrinking as evidence piles up.
 */
export const RATING_OPTIONS = { tau: 0 } as const;

export type AgentRating = { mu: number; sigma: number; ordinal: number };

/**
 * Folds games' placements into openskill ratings, one `rate` call per game in the order given (the
 * runner's canonical order, e.g. by schedule key). Same results in the same order ⇒ the same
 * floats, bit for bit. Every entrant starts at openskill's default (μ 25, σ 25/3).
 *
 * @example rateResults(['a', 'b'], [{ key: 'r0000-t0000-d0000-p0', round: 0, seats: ['a', 'b'], placements: [1, 2] }]).get('a')!.mu > 25
 */
export function rateResults(entrants: readonly string[], results: readonly GameResult[]): Map<string, AgentRating> {
  const current = new Map<string, Rating>(entrants.map((e) => [e, rating(undefined, RATING_OPTIONS)]));
  for (const r of results) {
    const teams = r.seats.map((agent) => {
      let x = current.get(agent);
      if (!x) current.set(agent, (x = rating(undefined, RATING_OPTIONS)));
      return [x];
    });
    // Lower rank is better; ties share a placement and so share a rank.
    const rated = rate(teams, { ...RATING_OPTIONS, rank: r.placements });
    r.seats.forEach((agent, i) => current.set(agent, rated[i]![0]!));
  }
  return new Map([...current].map(([agent, x]) => [agent, { mu: x.mu, sigma: x.sigma, ordinal: ordinal(x) }]));
}
