import { plannedGames } from '../../tournament/plan.js';
import type { TournamentGameRecord, TournamentRecord } from '../../store/index.js';
import { seatPlacements } from '../../tournament/results.js';
import type { HeadToHead } from '../../tournament/standings.js';
import type { Standing } from '../../tournament/types.js';
import type { Role } from '../auth/roles.js';

/** How far a tournament got, as the API shows it. */
export type TournamentProgressView = {
  /** Games that ended: the ones the standings count. */
  played: number;
  /** Games created so far (every state). */
  scheduled: number;
  /** Games being played now. */
  running: number;
  /** Games that failed and count for no one. */
  failed: number;
  /** Games the schedule plans (null when the stored config no longer parses). */
  planned: number | null;
  /** Games started and left unfinished while the tournament is not running (cut by its cost cap, or interrupted): not rated; resume goes on. */
  stopped: number;
};

/** One game of a tournament: who sat where and, once it ended, how they placed. */
export type TournamentGameView = {
  game_id: string;
  /** Where to read it: GET /games/:id (its log, snapshot and the /spectate socket take the same id). */
  link: string;
  key: string;
  round: number;
  table: number;
  /** The entrant in each seat, in seat order. */
  seats: string[];
  status: string;
  /** Each seat's placement (1 = won) once the game ended, in seat order; null before. */
  placements: number[] | null;
  error: string | null;
};

/** A tournament as the API returns it (list items leave out `standings` and `games`). */
export type TournamentSummaryView = {
  tournament_id: string;
  name: string;
  status: TournamentRecord['status'];
  /** The config; its `seed` is null while hidden from the caller. */
  config: Record<string, unknown>;
  seed_hidden: boolean;
  progress: TournamentProgressView;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
};

export type TournamentView = TournamentSummaryView & {
  /** From ended games only, best first (see src/tournament/standings.ts). */
  standings: Standing[];
  /** Every ordered pair of entrants that shared a table: how often the first placed above, level with or below the second (ended games only). */
  head_to_head: HeadToHead[];
  games: TournamentGameView[];
};

/**
 * Whether a caller may see a tournament's seed. Every game's deal derives from it, so while the
 * tournament can still play a game it is an admin's only; once it is over, anyone may have it to
 * re-run the whole tournament.
 */
export const seedHidden = (t: Pick<TournamentRecord, 'status'>, role: Role): boolean => role !== 'admin' && t.status !== 'ended' && t.status !== 'aborted';

/**
 * The progress counts: from the games list when given (so they agree with standings folded from
 * that same list), else from the record's counts (`running` then comes from the caller).
 */
export function progressOf(t: TournamentRecord, games?: readonly TournamentGameRecord[], running = 0): TournamentProgressView {
  const planned = plannedGames(t.config);
  const idle = t.status !== 'running';
  if (!games) return { played: t.progress.ended, scheduled: t.progress.games, running, failed: t.progress.failed, planned, stopped: idle ? t.progress.pending : 0 };
  const count = (f: (g: TournamentGameRecord) => boolean) => games.filter(f).length;
  return {
    played: count((g) => g.state === 'ended'),
    scheduled: games.length,
    running: count((g) => g.state === 'pending' && g.status === 'running'),
    failed: count((g) => g.state === 'failed'),
    planned,
    stopped: idle ? count((g) => g.state === 'pending') : 0,
  };
}

/**
 * What a caller may see of a tournament's record: never the batch being played (it holds the
 * seeds of running games), the seed only as {@link seedHidden} allows.
 */
export function tournamentSummary(t: TournamentRecord, role: Role, progress: TournamentProgressView = progressOf(t)): TournamentSummaryView {
  const hidden = seedHidden(t, role);
  return {
    tournament_id: t.tournament_id,
    name: t.name,
    status: t.status,
    config: { ...t.config, seed: hidden ? null : t.seed },
    seed_hidden: hidden,
    progress,
    created_at: t.created_at,
    updated_at: t.updated_at,
    ended_at: t.ended_at,
  };
}

/**
 * The whole tournament for GET /tournaments/:id: the summary, the standings and head-to-head
 * matrix (computed by the caller from ended games only) and every game with its link. A game still being played shows
 * who sits where — public at any table — and nothing else.
 */
export function tournamentView(t: TournamentRecord, games: readonly TournamentGameRecord[], standings: Standing[], role: Role, headToHead: HeadToHead[] = []): TournamentView {
  return {
    ...tournamentSummary(t, role, progressOf(t, games)),
    standings,
    head_to_head: headToHead,
    games: games.map((g) => ({
      game_id: g.game_id,
      link: `/games/${g.game_id}`,
      key: g.key,
      round: g.round,
      table: g.table,
      seats: g.seats,
      status: g.status,
      placements: g.state === 'ended' && g.placements ? seatPlacements(g.seats.length, g.placements) : null,
      error: g.error,
    })),
  };
}
