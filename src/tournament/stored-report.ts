import { readDecisions, readLog } from '../runner/stored-game.js';
import type { EventStore, TournamentGameRecord, TournamentRecord } from '../store/index.js';
import { tournamentReport, type Report, type ReportGame } from './report.js';
import { asksOf, storedTally } from './stored-wpa.js';

/** A tournament's research report as GET /tournaments/:id/report and `tiltyard report --json` give it. */
export type TournamentReportView = {
  tournament_id: string;
  status: TournamentRecord['status'];
  /** The ended games the report folds. */
  games_counted: number;
  report: Report;
};

/** The ended games of a tournament, in key order (so the report does not depend on which game finished first). */
export async function endedGames(store: EventStore, tournamentId: string): Promise<TournamentGameRecord[]> {
  return (await store.tournaments.games(tournamentId)).filter((g) => g.state === 'ended');
}

/**
 * The research report of `games` (ended games of `t`, as the caller may see them), from the store:
 * each game's full log, its decisions and its LLM seats' provider calls. The server narrows the
 * games by role first (src/server/tournaments/tournament-report.ts); the CLI, reading its own
 * store, folds them all.
 *
 * @example const view = await storedReport(store, t, await endedGames(store, t.tournament_id))
 */
export async function storedReport(store: EventStore, t: TournamentRecord, games: readonly TournamentGameRecord[]): Promise<TournamentReportView> {
  const read: ReportGame[] = [];
  for (const g of games) read.push(await reportGame(store, g));
  return { tournament_id: t.tournament_id, status: t.status, games_counted: games.length, report: tournamentReport(read) };
}

async function reportGame(store: EventStore, g: TournamentGameRecord): Promise<ReportGame> {
  const [events, decisions, calls] = await Promise.all([readLog(store, g.game_id), readDecisions(store, g.game_id), store.readProviderCalls(g.game_id)]);
  const asks = asksOf(decisions);
  const wpa = await storedTally(store, g, { events, asks });
  return { game_id: g.game_id, key: g.key, events, seats: g.seats, decisions: decisions.length, asks, wpa, ...(calls.length ? { providerCalls: calls } : {}) };
}
