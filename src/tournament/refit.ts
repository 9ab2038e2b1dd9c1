import { DEFAULT_RESAMPLES } from './bootstrap.js';
import { ratedResultsOf } from './results.js';
import { computeStandings } from './standings.js';
import type { TournamentGameRecord } from '../store/index.js';
import type { Standing, TournamentConfig } from './types.js';

/** How a refit compares with the table the runner stored. */
export type RefitCheck = {
  /** The stored results the refit folded (rated games: degraded ones left out unless the tournament rates them). */
  results: number;
  resamples: number;
  /** True when every agent's rank, μ, σ, games, wins, mean placement and intervals equal the stored ones. */
  equals_stored: boolean;
  /** Agents whose row differs (in the refit's order). */
  differing: string[];
  /** The largest |μ refit − μ stored| over agents in both tables (null when they share none). */
  max_mu_diff: number | null;
};

/** The fields of a row the fit and its bootstrap decide (not `wpa`, which readers add afterwards). */
const fitted = (s: Standing, rank: number) =>
  JSON.stringify([rank, s.agent, s.mu, s.sigma, s.rating_ci, s.games, s.wins, s.mean_placement, s.win_rate, s.placement_ci]);

/**
 * The standings recomputed from a tournament's stored results alone (one Plackett–Luce fit and a
 * fresh 1,000-resample group bootstrap, past the memo), beside how they compare with the stored
 * table. An ended tournament's stored table was computed the same way from the same results, so
 * they are equal field for field; a difference means the stored table is stale (a running
 * tournament's is redrawn with fewer resamples and may lag its last games) or was written by
 * another release.
 *
 * @example const { standings, check } = refitStandings({ entrants, seed }, games, false, stored); check.equals_stored
 */
export function refitStandings(
  config: Pick<TournamentConfig, 'entrants' | 'seed'>,
  games: readonly Pick<TournamentGameRecord, 'key' | 'round' | 'seats' | 'state' | 'placements' | 'degraded'>[],
  rateDegraded: boolean,
  stored: readonly Standing[],
): { standings: Standing[]; check: RefitCheck } {
  const results = ratedResultsOf(games, rateDegraded);
  const standings = computeStandings(config, results, DEFAULT_RESAMPLES);
  const storedRow = new Map(stored.map((s, i) => [s.agent, fitted(s, i)]));
  const storedMu = new Map(stored.map((s) => [s.agent, s.mu]));
  const differing = standings.filter((s, i) => storedRow.get(s.agent) !== fitted(s, i)).map((s) => s.agent);
  for (const s of stored) if (!standings.some((x) => x.agent === s.agent)) differing.push(s.agent);
  const gaps = standings.flatMap((s) => (storedMu.has(s.agent) ? [Math.abs(s.mu - storedMu.get(s.agent)!)] : []));
  const max_mu_diff = gaps.length ? Math.round(Math.max(...gaps) * 1e6) / 1e6 : null;
  return { standings, check: { results: results.length, resamples: DEFAULT_RESAMPLES, equals_stored: differing.length === 0, differing, max_mu_diff } };
}
