import type { PrismaClient } from './generated/client.js';
import type { StoreContext } from './context.js';
import { StoreError } from './errors.js';
import { TournamentNotFoundError } from './tournaments.js';

/**
 * A write of a coordinator whose lease was taken over: another coordinator holds a newer fencing
 * token, so this one must stop (its lease expired while it was paused or cut off).
 */
export class FencedWriteError extends StoreError {
  override readonly name = 'FencedWriteError';
  constructor(
    readonly tournamentId: string,
    readonly token: number,
  ) {
    super(`tournament ${tournamentId}: this coordinator's lease (fencing token ${token}) was taken over by a newer one; its write is refused`);
  }
}

/**
 * Issues the next fencing token of a tournament: the store, not Redis, counts them, so a token is
 * larger than every earlier one even when Redis restarted empty and lost the lease.
 */
export async function takeFence(ctx: StoreContext, tournamentId: string): Promise<number> {
  const rows = await ctx.prisma.$queryRaw<{ fence: bigint }[]>`
    UPDATE tournaments SET fence = fence + 1 WHERE tournament_id = ${tournamentId} RETURNING fence`;
  if (rows.length === 0) throw new TournamentNotFoundError(tournamentId);
  return Number(rows[0]!.fence);
}

/**
 * Runs `write` in one transaction that first checks the tournament's fence still equals `token`,
 * holding its row lock until commit: a coordinator fenced off meanwhile gets FencedWriteError and
 * writes nothing, and no newer coordinator can take the fence half-way through the write.
 */
export async function fencedWrite<T>(ctx: StoreContext, tournamentId: string, token: number, write: (tx: StoreContext) => Promise<T>): Promise<T> {
  return ctx.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ fence: bigint }[]>`SELECT fence FROM tournaments WHERE tournament_id = ${tournamentId} FOR UPDATE`;
    if (rows.length === 0) throw new TournamentNotFoundError(tournamentId);
    if (Number(rows[0]!.fence) !== token) throw new FencedWriteError(tournamentId, token);
    // The write's functions take a context: the same one, its client bound to this transaction.
    return write({ ...ctx, prisma: tx as unknown as PrismaClient });
  });
}

/**
 * Puts a tournament's failed games back in play: each goes back to `created` (nothing stored yet)
 * or `running` (it resumes from its last committed step), its failure count and reason cleared,
 * its `attempt` one higher (a queued game gets a new job id); the tournament runs again. Games
 * that are not failed games of this tournament are left alone. Returns the ids put back.
 */
export async function retryFailedGames(ctx: StoreContext, tournamentId: string, gameIds: readonly string[]): Promise<string[]> {
  if (gameIds.length === 0) return [];
  const rows = await ctx.prisma.$queryRaw<{ game_id: string }[]>`
    WITH g AS (
      UPDATE games SET status = CASE WHEN last_seq > 0 THEN 'running' ELSE 'created' END,
        run_failures = 0, failure_reason = NULL, ended_at = NULL, attempt = attempt + 1, updated_at = now()
      WHERE game_id = ANY(${[...gameIds]}::text[]) AND status IN ('failed', 'created', 'running')
        AND game_id IN (SELECT game_id FROM tournament_games WHERE tournament_id = ${tournamentId})
      RETURNING game_id),
    t AS (UPDATE tournament_games SET error = NULL WHERE tournament_id = ${tournamentId} AND game_id IN (SELECT game_id FROM g) RETURNING 1),
    r AS (UPDATE tournaments SET status = 'running', ended_at = NULL, updated_at = now()
          WHERE tournament_id = ${tournamentId} AND EXISTS (SELECT 1 FROM g) RETURNING 1)
    SELECT game_id FROM g ORDER BY game_id`;
  return rows.map((r) => r.game_id);
}
