import { decompress, sealOf, segmentEvents, segmentSeal, sha256 } from './cold-codec.js';
import type { Head, StoreContext } from './context.js';
import { chainHashes, GENESIS_HASH } from './hash.js';

/** A cold_segments row with its bytes (base64-encoded: one form on every adapter); last_hash null in segments sealed before it was kept. */
export type SegmentRow = { first_seq: number; last_seq: number; last_turn: number; seal: string; last_hash: string | null; data: string };

const SEGMENTS_SQL = `SELECT first_seq, last_seq, last_turn, seal, last_hash, encode(data, 'base64') AS data FROM cold_segments
  WHERE game_id = $1 AND last_seq > $2 AND first_seq <= $3 ORDER BY first_seq`;

/** The cold segments of a game holding any seq in (afterSeq, toSeq], in seq order, bytes and all (verify's walk). */
export function readSegments(ctx: StoreContext, gameId: string, afterSeq: number, toSeq: number): Promise<SegmentRow[]> {
  return ctx.sql.rows<SegmentRow>(SEGMENTS_SQL, [gameId, afterSeq, toSeq]);
}

const ACTIONS_SQL = `SELECT seal, encode(data, 'base64') AS data FROM cold_actions WHERE game_id = $1`;

/** What walking a cold game's chain from genesis found: each segment's last hash, or the first seq that fails. */
export type Walk = { bad: null; lastHashes: string[] } | { bad: number };

/**
 * The chain recomputed from the genesis hash over every segment's events, each segment's seal
 * checked against it and its stored bytes (and its stored last hash, where it has one), the seq
 * ranges, its last turn and the head in `games`. Nothing is taken on trust but the genesis hash.
 */
export function walkSegments(gameId: string, head: Head, segments: readonly SegmentRow[]): Walk {
  let prev = GENESIS_HASH;
  let seq = 0;
  const lastHashes: string[] = [];
  for (const s of segments) {
    if (s.first_seq !== seq + 1) return { bad: seq + 1 };
    const data = Buffer.from(s.data, 'base64');
    let hashes: string[];
    try {
      const events = segmentEvents(gameId, s.first_seq, decompress(data));
      if (s.first_seq + events.length - 1 !== s.last_seq || events.at(-1)?.turn !== s.last_turn) return { bad: s.first_seq };
      hashes = chainHashes(prev, events);
    } catch {
      return { bad: s.first_seq }; // not brotli, or not the tuples' JSON
    }
    prev = hashes[hashes.length - 1]!;
    if (segmentSeal(prev, data) !== s.seal || (s.last_hash !== null && s.last_hash !== prev)) return { bad: s.first_seq };
    lastHashes.push(prev);
    seq = s.last_seq;
  }
  if (seq < head.seq) return { bad: seq + 1 };
  if (seq > head.seq) return { bad: head.seq + 1 };
  if (prev !== head.hash) return { bad: Math.max(seq, 1) };
  return { bad: null, lastHashes };
}

/**
 * verifyChain for a compacted game (walkSegments), then the cold actions' seal: any altered byte
 * (of the data, the seal, the last hash, the seq range) or a missing segment fails. Returns the
 * first seq of the first segment that fails (1 when the cold actions' seal fails: decisions carry
 * no seq of their own), or null.
 */
export async function verifyCold(ctx: StoreContext, gameId: string, head: Head, segments: readonly SegmentRow[]): Promise<number | null> {
  const walk = walkSegments(gameId, head, segments);
  if (walk.bad !== null) return walk.bad;
  const [actions] = await ctx.sql.rows<{ seal: string; data: string }>(ACTIONS_SQL, [gameId]);
  if (actions && actionsSeal(head.hash, Buffer.from(actions.data, 'base64')) !== actions.seal) return 1;
  return null;
}

/** The cold actions' seal: bound to the game's head, so actions cannot move between games. */
export const actionsSeal = (headHash: string, data: Buffer): string => sealOf(headHash, sha256(data));
