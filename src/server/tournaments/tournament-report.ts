import type { EventStore, TournamentRecord } from '../../store/index.js';
import { endedGames, storedReport, type TournamentReportView } from '../../tournament/stored-report.js';
import type { Role } from '../auth/roles.js';
import { foldableBy } from './delayed-games.js';

/** GET /tournaments/:id/report (the same view `tiltyard report --json` prints). */
export type { TournamentReportView } from '../../tournament/stored-report.js';

/**
 * The research report of a tournament's ended games, from the store (see storedReport). Only
 * ended games: while the tournament runs its live games hold hidden information, and once a game
 * is over a researcher may see all of it (as GET /games/:id/analytics allows), so every caller
 * allowed the report gets the same figures. A researcher's report leaves out games whose duplicate
 * set is still being played (foldableBy). Games are folded in key order, so the report does not
 * depend on which game finished first.
 *
 * @example const view = await reportOf(store, await store.tournaments.get(id), 'researcher')
 */
export async function reportOf(store: EventStore, t: TournamentRecord, role: Role): Promise<TournamentReportView> {
  return storedReport(store, t, await foldableBy(store, await endedGames(store, t.tournament_id), role));
}
