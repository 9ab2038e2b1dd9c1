import { readDecisions, readLog } from '../../runner/stored-game.js';
import type { EventStore, TournamentGameRecord, TournamentRecord } from '../../store/index.js';
import { tournamentReport, type Report, type ReportGame } from '../../tournament/report.js';
import type { Role } from '../auth/roles.js';
import { foldableBy } from './delayed-games.js';

/** GET /tournaments/:id/report. */
export type TournamentReportView = {
  tournament_id: string;
  status: TournamentRecord['status'];
  /** The ended games the report folds. */
  games_counted: number;
  report: Report;
};

/**
 * The research report of a tournament's ended games, from the store: each game's full log, its
 * decisions and its LLM seats' provider calls. Only ended games: while the tournament runs its
 * live games hold hidden information, and once a game is over a researcher may see all of it (as
 * GET /games/:id/analytics allows), so every caller allowed the report gets the same figures.
 * A researcher's report leaves out games whose duplicate set is still being played (foldableBy).
 * Games are folded in key order, so the report does not depend on which game finished first.
 *
 * @example const view = await reportOf(store, await store.tournaments.get(id), 'researcher')
 */
export async function reportOf(store: EventStore, t: TournamentRecord, role: Role): Promise<TournamentReportView> {
  const ended = await foldableBy(store, (await store.tournaments.games(t.tournament_id)).filter((g) => g.state === 'ended'), role);
  const games: ReportGame[] = [];
  for (const g of ended) games.push(await reportGame(store, g));
  return { tournament_id: t.tournament_id, status: t.status, games_counted: ended.length, report: tournamentReport(games) };
}

async function reportGame(store: EventStore, g: TournamentGameRecord): Promise<ReportGame> {
  const [events, decisions, calls] = await Promise.all([readLog(store, g.game_id), readDecisions(store, g.game_id), store.readProviderCalls(g.game_id)]);
  return { game_id: g.game_id, events, seats: g.seats, decisions: decisions.length, ...(calls.length ? { providerCalls: calls } : {}) };
}
