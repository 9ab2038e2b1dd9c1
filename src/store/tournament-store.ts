import type { StoreContext } from './context.js';
import { fencedWrite, retryFailedGames, takeFence } from './tournament-fence.js';
import {
  createTournament,
  getTournament,
  linkGame,
  listTournaments,
  markGameFailed,
  readRatings,
  saveBatch,
  saveRatings,
  patchTournamentOptions,
  setTournamentStatus,
  tournamentCost,
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
 * - cost(id) — the recorded provider cost of its games (USD); patchOptions(id, patch) — e.g. a new budget
 * - retryFailed(id, gameIds) — failed games back in play, with a new attempt (tournament resume)
 * - takeFence(id) / fenced(id, token) — a coordinator's fencing token, and a view of this store
 *   whose writes to that tournament are refused (FencedWriteError) once a newer token was taken
 */
export class TournamentStore {
  constructor(
    private readonly ctx: StoreContext,
    /** Set on a fenced view: every write checks the tournament's fence still is this token. */
    private readonly fence: { tournamentId: string; token: number } | null = null,
  ) {}

  /** A coordinator's new fencing token for the tournament (see tournament-fence.ts). */
  takeFence(tournamentId: string): Promise<number> {
    return this.ctx.faults.run('tournaments.takeFence', () => takeFence(this.ctx, tournamentId));
  }

  /** This store, with every write to the tournament guarded by the token (see fencedWrite). */
  fenced(tournamentId: string, token: number): TournamentStore {
    return new TournamentStore(this.ctx, { tournamentId, token });
  }

  retryFailed(tournamentId: string, gameIds: readonly string[]): Promise<string[]> {
    return this.write('tournaments.retryFailed', tournamentId, (ctx) => retryFailedGames(ctx, tournamentId, gameIds));
  }

  /** A write, waited out like every call, and checked against the fence on a fenced view. */
  private write<T>(what: string, tournamentId: string, op: (ctx: StoreContext) => Promise<T>): Promise<T> {
    const fence = this.fence;
    if (!fence || fence.tournamentId !== tournamentId) return this.ctx.faults.run(what, () => op(this.ctx));
    return this.ctx.faults.run(what, () => fencedWrite(this.ctx, tournamentId, fence.token, op));
  }

  create(input: CreateTournamentInput): Promise<TournamentRecord> {
    return this.ctx.faults.run('tournaments.create', () => createTournament(this.ctx, input));
  }

  get(tournamentId: string): Promise<TournamentRecord> {
    return this.ctx.faults.run('tournaments.get', () => getTournament(this.ctx, tournamentId));
  }

  list(options?: { limit?: number }): Promise<TournamentRecord[]> {
    return this.ctx.faults.run('tournaments.list', () => listTournaments(this.ctx, options));
  }

  setStatus(tournamentId: string, status: TournamentStatus): Promise<void> {
    return this.write('tournaments.setStatus', tournamentId, (ctx) => setTournamentStatus(ctx, tournamentId, status));
  }

  cost(tournamentId: string): Promise<number> {
    return this.ctx.faults.run('tournaments.cost', () => tournamentCost(this.ctx, tournamentId));
  }

  patchOptions(tournamentId: string, patch: Record<string, unknown>): Promise<void> {
    return this.write('tournaments.patchOptions', tournamentId, (ctx) => patchTournamentOptions(ctx, tournamentId, patch));
  }

  saveBatch(tournamentId: string, batch: readonly unknown[]): Promise<void> {
    return this.write('tournaments.saveBatch', tournamentId, (ctx) => saveBatch(ctx, tournamentId, batch));
  }

  linkGame(tournamentId: string, link: LinkInput): Promise<void> {
    return this.write('tournaments.linkGame', tournamentId, (ctx) => linkGame(ctx, tournamentId, link));
  }

  games(tournamentId: string): Promise<TournamentGameRecord[]> {
    return this.ctx.faults.run('tournaments.games', () => tournamentGames(this.ctx, tournamentId));
  }

  markFailed(tournamentId: string, gameId: string, error: string): Promise<void> {
    return this.write('tournaments.markFailed', tournamentId, (ctx) => markGameFailed(ctx, tournamentId, gameId, error));
  }

  saveRatings(tournamentId: string, ratings: readonly RatingInput[]): Promise<void> {
    return this.write('tournaments.saveRatings', tournamentId, (ctx) => saveRatings(ctx, tournamentId, ratings));
  }

  ratings(tournamentId: string): Promise<RatingRecord[]> {
    return this.ctx.faults.run('tournaments.ratings', () => readRatings(this.ctx, tournamentId));
  }
}
