import type { EventStore, TournamentGameRecord, TournamentRecord } from '../../store/index.js';
import { storedTallies } from '../../tournament/stored-wpa.js';
import type { GameResult, Standing } from '../../tournament/types.js';
import { withWpa } from '../../tournament/wpa-standings.js';
import type { Role } from '../auth/roles.js';
import { foldableBy } from './delayed-games.js';

/**
 * The standings of GET /tournaments/:id with the WPA skill figure beside the rating, for a caller
 * allowed to see ended games whole: WPA is read off the omniscient curve (every hand, plan and
 * feeling), which an anonymous spectator never sees, so a spectator's table has no `wpa`. A
 * researcher's figure leaves out games whose duplicate set is still being played (foldableBy), as
 * the report does; an admin's counts every rated game. Tallies are cached per ended game.
 *
 * @example await standingsAsSeen(store, t, games, results, table, 'researcher', 1000)
 */
export async function standingsAsSeen(store: EventStore, t: Pick<TournamentRecord, 'seed'>, entrants: readonly string[], games: readonly TournamentGameRecord[], results: readonly GameResult[], table: Standing[], role: Role, resamples: number): Promise<Standing[]> {
  if (role !== 'admin' && role !== 'researcher') return table;
  const rated = new Set(results.map((r) => r.key));
  const foldable = await foldableBy(store, games.filter((g) => g.state === 'ended' && rated.has(g.key)), role);
  return withWpa(table, { entrants, seed: t.seed }, results, await storedTallies(store, foldable), resamples);
}
