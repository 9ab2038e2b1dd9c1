import type { StoreContext } from './context.js';
import { fromRow } from './event-rows.js';
import { eventHash, GENESIS_HASH } from './hash.js';
import { readHead } from './heads.js';
import { readRows } from './reads.js';
import { readSegments, verifyCold } from './verify-cold.js';

const PAGE = 2_000;

/**
 * Walks a game's log from the genesis hash and returns the first seq whose event does not verify
 * (a gap, a prev_hash that is not its predecessor's hash, or a hash that does not match the
 * event's content — e.g. an edited payload), or null when the whole chain and the head recorded
 * in `games` agree. A log missing its tail reports the first missing seq. A compacted game is
 * checked segment by segment (verifyCold).
 *
 * @example expect(await verifyChain(ctx, 'game_s1')).toBeNull()
 */
export async function verifyChain(ctx: StoreContext, gameId: string): Promise<number | null> {
  const head = await readHead(ctx, gameId);
  const segments = await readSegments(ctx, gameId, 0, 2 ** 31 - 1);
  if (segments.length > 0) return verifyCold(ctx, gameId, head, segments);
  let prevHash = GENESIS_HASH;
  let seq = 0;
  for (;;) {
    const rows = await readRows(ctx, gameId, seq, 2 ** 31 - 1, PAGE);
    for (const r of rows) {
      if (r.seq !== seq + 1 || r.prev_hash !== prevHash) return seq + 1;
      const hash = eventHash(prevHash, fromRow(gameId, r));
      if (hash !== r.hash) return r.seq;
      prevHash = hash;
      seq = r.seq;
    }
    if (rows.length < PAGE) break;
  }
  if (seq < head.seq) return seq + 1;
  if (seq > head.seq) return head.seq + 1;
  return prevHash === head.hash ? null : Math.max(seq, 1);
}
