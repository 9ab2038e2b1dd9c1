import type { Head, StoreContext } from './context.js';
import { IntegrityError } from './errors.js';
import { readSegments, walkSegments } from './verify-cold.js';

// Only where it is still missing, and only for the seal it was computed against: a segment changed
// meanwhile keeps its NULL (and fails the next read's walk).
const FILL_SQL = `UPDATE cold_segments c SET last_hash = x.last_hash
  FROM json_to_recordset($2::json) AS x(first_seq int, seal text, last_hash text)
  WHERE c.game_id = $1 AND c.first_seq = x.first_seq AND c.seal = x.seal AND c.last_hash IS NULL`;

/**
 * Segments sealed before cold_segments kept each one's last hash (a NULL last_hash) cannot have
 * their seal checked on its own: the chain at their last seq must be recomputed from genesis. So
 * the first read of such a game walks its whole chain once (as verify does), and only if all of
 * it verifies writes each segment's last hash in; from then on reads check it as any other. A game
 * that does not verify is an IntegrityError, and nothing is written.
 */
export async function fillLastHashes(ctx: StoreContext, gameId: string, head: Head): Promise<void> {
  const segments = await readSegments(ctx, gameId, 0, 2 ** 31 - 1);
  const walk = walkSegments(gameId, head, segments);
  if (walk.bad !== null) {
    const s = segments.find((x) => x.last_seq >= walk.bad) ?? { first_seq: walk.bad, last_seq: Math.max(walk.bad, head.seq) };
    throw new IntegrityError(gameId, 'events', Math.min(s.first_seq, walk.bad), s.last_seq, 'the segments do not verify from the genesis hash');
  }
  const fill = segments.map((s, i) => ({ first_seq: s.first_seq, seal: s.seal, last_hash: walk.lastHashes[i]! }));
  await ctx.sql.rows(FILL_SQL, [gameId, JSON.stringify(fill)]);
}
