import type { StoreContext } from './context.js';
import { toRecord } from './games.js';
import type { GameRecord } from './types.js';

/** The forks GET /games/:id and `tiltyard games <id>` list at most (the count says how many there are). */
export const MAX_FORKS_LISTED = 50;

export type ForkPage = { forks: GameRecord[]; total: number };

/**
 * The games forked from `parentId` (their `options.fork.parent_game_id`), oldest first, at most
 * `limit`, with how many there are in all. `upToSeq` keeps only forks whose fork point is at or
 * before that seq (a caller who sees the parent as of a delayed head learns of no fork past it);
 * `withoutKeptDecks` leaves out forks that kept the parent's deck (no `secret`) and have not ended
 * (a non-admin learns nothing of them, not even how many: see server/games/hidden-fork.ts).
 * Found through the partial expression index games_fork_parent_idx (one index range per parent:
 * ~0.2 ms against a ~460 ms walk of 200,000 games without it; see docs/research.md).
 *
 * @example const { forks, total } = await forksOf(ctx, 'game_ab12', { upToSeq: 400 })
 */
export async function forksOf(ctx: StoreContext, parentId: string, opts: { upToSeq?: number; limit?: number; withoutKeptDecks?: boolean } = {}): Promise<ForkPage> {
  const limit = opts.limit ?? MAX_FORKS_LISTED;
  // jsonb ordering compares numbers as numbers, and never throws on a malformed seq (it sorts after).
  const upTo = opts.upToSeq ?? 2_147_483_647;
  const kept = opts.withoutKeptDecks === true;
  const rows = await ctx.prisma.$queryRaw<{ game_id: string; total: bigint }[]>`
    SELECT game_id, count(*) OVER () AS total FROM games
    WHERE options->'fork'->>'parent_game_id' = ${parentId} AND options->'fork'->'seq' <= to_jsonb(${upTo}::int)
      AND (NOT ${kept} OR options->'fork'->'secret' IS NOT NULL OR status = 'ended')
    ORDER BY created_at, game_id LIMIT ${limit}`;
  if (rows.length === 0) return { forks: [], total: 0 };
  const found = await ctx.prisma.game.findMany({ where: { gameId: { in: rows.map((r) => r.game_id) } } });
  const byId = new Map(found.map((g) => [g.gameId, toRecord(g)]));
  return { forks: rows.flatMap((r) => byId.get(r.game_id) ?? []), total: Number(rows[0]!.total) };
}
