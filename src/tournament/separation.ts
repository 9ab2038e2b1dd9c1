import type { Standing } from './types.js';

/** Games each top-k entrant must have played before the stop rule may end a tournament. */
export const DEFAULT_SEPARATION_MIN_GAMES = 20;

/**
 * The stop rule. The top k of the standings (by rating) are *separated* when, for each of the
 * first k places i (1-based):
 *   1. the entrant in place i has played at least `min_games` games (small samples give
 *      overconfident bootstrap intervals), and
 *   2. its 95 % rating interval lies strictly above the intervals of every entrant ranked after
 *      it: low(i) > high(j) for every j > i.
 * So the leader is clearly ahead of everyone, the second of everyone after it, and so on; the order
 * among the top k and the cut between k and k + 1 are both settled. The rating's interval is used
 * (not the mean placement's) because the table is ranked by the rating, and because the rating
 * weighs who an agent beat; the intervals resample whole duplicate groups (group-bootstrap.ts).
 * Non-overlapping 95 % intervals is a conservative test: it stops later than a test of the
 * difference would, never earlier.
 */
export function separated(table: readonly Standing[], rule: { top_k: number; min_games?: number }): boolean {
  const minGames = rule.min_games ?? DEFAULT_SEPARATION_MIN_GAMES;
  if (rule.top_k >= table.length) return false;
  for (let i = 0; i < rule.top_k; i++) {
    const s = table[i]!;
    if (s.games < minGames || !s.rating_ci) return false;
    for (let j = i + 1; j < table.length; j++) {
      const high = table[j]!.rating_ci?.high;
      if (high === undefined || !(s.rating_ci.low > high)) return false;
    }
  }
  return true;
}
