import type { Standing } from './types.js';

/** Games each top-k entrant must have played before the stop rule may end a tournament. */
export const DEFAULT_SEPARATION_MIN_GAMES = 20;

/**
 * The stop rule. The top k of the standings (by ordinal) are *separated* when, for each of the
 * first k places i (1-based):
 *   1. the entrant in place i has played at least `min_games` games (small samples give
 *      overconfident bootstrap intervals), and
 *   2. its 95 % mean-placement interval lies strictly below (better than) the intervals of every
 *      entrant ranked after it: high(i) < low(j) for every j > i.
 * So the leader is surely ahead of everyone, the second of everyone after it, and so on; the order
 * among the top k and the cut between k and k + 1 are both settled. Mean placement is used rather
 * than the win rate because it uses every seat's result, not only the winner's.
 */
export function separated(table: readonly Standing[], rule: { top_k: number; min_games?: number }): boolean {
  const minGames = rule.min_games ?? DEFAULT_SEPARATION_MIN_GAMES;
  if (rule.top_k >= table.length) return false;
  for (let i = 0; i < rule.top_k; i++) {
    const s = table[i]!;
    if (s.games < minGames || !s.placement_ci) return false;
    for (let j = i + 1; j < table.length; j++) {
      const low = table[j]!.placement_ci?.low;
      if (low === undefined || !(s.placement_ci.high < low)) return false;
    }
  }
  return true;
}
