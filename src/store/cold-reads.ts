import type { GameEvent } from '../protocol/index.js';
import { decompress, segmentEvents } from './cold-codec.js';
import type { StoreContext } from './context.js';

/** A cold_segments row as reads get it: the bytes base64-encoded (one form on every adapter). */
export type SegmentRow = { first_seq: number; last_seq: number; last_turn: number; seal: string; data: string };

const SEGMENTS_SQL = `SELECT first_seq, last_seq, last_turn, seal, encode(data, 'base64') AS data FROM cold_segments
  WHERE game_id = $1 AND last_seq > $2 AND first_seq <= $3 ORDER BY first_seq`;

/** The cold segments of a game holding any seq in (afterSeq, toSeq], in seq order. */
export function readSegments(ctx: StoreContext, gameId: string, afterSeq: number, toSeq: number): Promise<SegmentRow[]> {
  return ctx.sql.rows<SegmentRow>(SEGMENTS_SQL, [gameId, afterSeq, toSeq]);
}

// Decompressed segments a store read lately (the text, parsed afresh per read so no caller shares
// objects with another): a spectator paging an ended game or stateAt near a snapshot reads the same
// segment again and again. Keyed by the seal, which names the bytes.
const CACHED = 64;
const cache = new WeakMap<StoreContext, Map<string, string>>();

function segmentText(ctx: StoreContext, s: SegmentRow): string {
  let m = cache.get(ctx);
  if (!m) cache.set(ctx, (m = new Map<string, string>()));
  const hit = m.get(s.seal);
  if (hit !== undefined) {
    m.delete(s.seal);
    m.set(s.seal, hit);
    return hit;
  }
  const text = decompress(Buffer.from(s.data, 'base64'));
  m.set(s.seal, text);
  if (m.size > CACHED) m.delete(m.keys().next().value!);
  return text;
}

/** The events of a cold game with afterSeq < seq ≤ toSeq, in seq order, at most `limit`. */
export async function readCold(
  ctx: StoreContext,
  gameId: string,
  afterSeq: number,
  toSeq: number,
  limit: number,
): Promise<GameEvent[]> {
  const out: GameEvent[] = [];
  for (const s of await readSegments(ctx, gameId, afterSeq, toSeq)) {
    for (const e of segmentEvents(gameId, s.first_seq, segmentText(ctx, s))) {
      if (e.seq <= afterSeq || e.seq > toSeq) continue;
      if (out.length === limit) return out;
      out.push(e);
    }
  }
  return out;
}
