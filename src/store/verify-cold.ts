import { decompress, segmentEvents, segmentSeal, sha256 } from './cold-codec.js';
import type { Head, StoreContext } from './context.js';
import { chainHashes, GENESIS_HASH } from './hash.js';
import type { SegmentRow } from './cold-reads.js';

const ACTIONS_SQL = `SELECT seal, encode(data, 'base64') AS data FROM cold_actions WHERE game_id = $1`;

/**
 * verifyChain for a compacted game: the chain is recomputed from the genesis hash over every
 * segment's events, and each segment's seal must equal sha256(chain at its last seq ‖ sha256 of its
 * stored bytes) — so any altered byte (of the data, the seal, the seq range) or a missing segment
 * fails. Returns the first seq of the first segment that fails (1 when the cold actions' seal
 * fails: decisions carry no seq of their own), or null.
 */
export async function verifyCold(ctx: StoreContext, gameId: string, head: Head, segments: readonly SegmentRow[]): Promise<number | null> {
  let prev = GENESIS_HASH;
  let seq = 0;
  for (const s of segments) {
    if (s.first_seq !== seq + 1) return seq + 1;
    const data = Buffer.from(s.data, 'base64');
    let hashes: string[];
    try {
      const events = segmentEvents(gameId, s.first_seq, decompress(data));
      if (s.first_seq + events.length - 1 !== s.last_seq || events.at(-1)?.turn !== s.last_turn) return s.first_seq;
      hashes = chainHashes(prev, events);
    } catch {
      return s.first_seq; // not brotli, or not the tuples' JSON
    }
    prev = hashes[hashes.length - 1]!;
    if (segmentSeal(prev, data) !== s.seal) return s.first_seq;
    seq = s.last_seq;
  }
  if (seq < head.seq) return seq + 1;
  if (seq > head.seq) return head.seq + 1;
  if (prev !== head.hash) return Math.max(seq, 1);
  const [actions] = await ctx.sql.rows<{ seal: string; data: string }>(ACTIONS_SQL, [gameId]);
  if (actions && actionsSeal(head.hash, Buffer.from(actions.data, 'base64')) !== actions.seal) return 1;
  return null;
}

/** The cold actions' seal: bound to the game's head, so actions cannot move between games. */
export const actionsSeal = (headHash: string, data: Buffer): string => sha256(headHash + sha256(data));
