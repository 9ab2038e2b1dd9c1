import type { StoreContext } from './context.js';
import {
  createTournament,
  getTournament,
  linkGame,
  listTournaments,
  markGameFailed,
  readRatings,
  saveBatch,
  saveRatings,
  setTournamentStatus,
  tournamentGames,
  type CreateTournamentInput,
  type LinkInput,
  type RatingInput,
  type RatingRecord,
  type TournamentGameRecord,
  type TournamentRecord,
  type TournamentStatus,
} from './tournaments.js';

/**
 * Tournaments in the store (`store.tournaments`); each method is the function of the same name in
 * tournaments.ts.
 *
 * - create(input) / get(id) / list({limit}) — tournaments with their progress, newest first
 * - setStatus(id, status) — created → running → ended (or aborted)
 * - saveBatch(id, batch) — the batch the runner is about to play (what a resume finishes first)
 * - linkGame(id, link) — a created game under its schedule key (idempotent)
 * - games(id) — its games with status, placements and error, in key order
 * - markFailed(id, gameId, error) — a game that counts for no one
 * - saveRatings(id, standings) / ratings(id) — the standings, recomputed from all results
 */
export class TournamentStore {
  constructor(private readonly ctx: StoreContext) {}

  create(input: CreateTournamentInput): Promise<TournamentRecord> {
    return createTournament(this.ctx, input);
  }

  get(tournamentId: string): Promise<TournamentRecord> {
    return getTournament(this.ctx, tournamentId);
  }

  list(options?: { limit?: number }): Promise<TournamentRecord[]> {
    return listTournaments(this.ctx, options);
  }

  setStatus(tournamentId: string, status: TournamentStatus): Promise<void> {
    return setTournamentStatus(this.ctx, tournamentId, status);
  }

  saveBatch(tournamentId: string, batch: readonly unknown[]): Promise<void> {
    return saveBatch(this.ctx, tournamentId, batch);
  }

  linkGame(tournamentId: string, link: LinkInput): Promise<void> {
    return linkGame(this.ctx, tournamentId, link);
  }

  games(tournamentId: string): Promise<TournamentGameRecord[]> {
    return tournamentGames(this.ctx, tournamentId);
  }

  markFailed(tournamentId: string, gameId: string, error: string): Promise<void> {
    return markGameFailed(this.ctx, tournamentId, gameId, error);
  }

  saveRatings(tournamentId: string, ratings: readonly RatingInput[]): Promise<void> {
    return saveRatings(this.ctx, tournamentId, ratings);
  }

  ratings(tournamentId: string): Promise<RatingRecord[]> {
    return readRatings(this.ctx, tournamentId);
  }
}
