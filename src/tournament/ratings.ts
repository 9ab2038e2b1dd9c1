import { ordinal, rate, rating, type Rating } from 'openskill';
import { hash53 } from './seeds.js';
import type { GameResult } from './types.js';

/**
 * openskill options: Plackett–Luce (the library's default model) with `tau: 0`, because bots do
 * not drift between games and a τ > 0 would keep σ from shrinking as evidence piles up.
 */
export const RATING_OPTIONS = { tau: 0 } as const;

export type AgentRating = { mu: number; sigma: number; ordinal: number };

/**
 * A memo of the fold's state after some prefixes of results, keyed by the prefix's length and two
 * independent 53-bit hashes of its content. The fold is a pure function of the prefix, so resuming
 * from a checkpoint gives the very same floats; it only saves time when standings are recomputed
 * as results arrive (a live table over 1,000 games would otherwise re-rate every game each time).
 */
const CHECKPOINT_EVERY = 32;
const MAX_CHECKPOINTS = 1024;
const checkpoints = new Map<string, ReadonlyMap<string, Rating>>();

/**
 * Folds games' placements into openskill ratings, one `rate` call per game in the order given (the
 * runner's canonical order, by schedule key). Same results in the same order ⇒ the same floats,
 * bit for bit. Every entrant starts at openskill's default (μ 25, σ 25/3).
 *
 * @example rateResults(['a', 'b'], [{ key: 'r0000-t0000-d0000-p0', round: 0, seats: ['a', 'b'], placements: [1, 2] }]).get('a')!.mu > 25
 */
export function rateResults(entrants: readonly string[], results: readonly GameResult[]): Map<string, AgentRating> {
  // Prefix ids: ids[i] identifies entrants + results[0..i) (i a multiple of CHECKPOINT_EVERY).
  const ids: string[] = [];
  let h1 = hash53(entrants.join('\u0000'), 1);
  let h2 = hash53(entrants.join('\u0000'), 2);
  let start = 0;
  let resumed: ReadonlyMap<string, Rating> | undefined;
  for (let i = 0; i <= results.length; i++) {
    if (i % CHECKPOINT_EVERY === 0) {
      const id = `${i}:${h1}:${h2}`;
      ids[i] = id;
      const hit = checkpoints.get(id);
      if (hit) [start, resumed] = [i, hit];
    }
    if (i === results.length) break;
    const r = results[i]!;
    const text = `${r.key}\u0000${r.seats.join('\u0001')}\u0000${r.placements.join(',')}`;
    h1 = hash53(`${h1}\u0000${text}`, 1);
    h2 = hash53(`${h2}\u0000${text}`, 2);
  }
  const current = new Map<string, Rating>(resumed ?? entrants.map((e) => [e, rating(undefined, RATING_OPTIONS)]));
  for (let i = start; i < results.length; i++) {
    const r = results[i]!;
    const teams = r.seats.map((agent) => {
      let x = current.get(agent);
      if (!x) current.set(agent, (x = rating(undefined, RATING_OPTIONS)));
      return [x];
    });
    // Lower rank is better; ties share a placement and so share a rank.
    const rated = rate(teams, { ...RATING_OPTIONS, rank: r.placements });
    r.seats.forEach((agent, s) => current.set(agent, rated[s]![0]!));
    const next = i + 1;
    if (next % CHECKPOINT_EVERY === 0 && !checkpoints.has(ids[next]!)) {
      if (checkpoints.size >= MAX_CHECKPOINTS) checkpoints.delete(checkpoints.keys().next().value!);
      checkpoints.set(ids[next]!, new Map(current));
    }
  }
  return new Map([...current].map(([agent, x]) => [agent, { mu: x.mu, sigma: x.sigma, ordinal: ordinal(x) }]));
}
