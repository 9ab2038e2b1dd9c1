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

function cached(ctx: StoreContext, seal: string): string | undefined {
  const m = cache.get(ctx);
  const hit = m?.get(seal);
  if (hit === undefined) return undefined;
  m!.delete(seal);
  m!.set(seal, hit);
  return hit;
}

function remember(ctx: StoreContext, seal: string, text: string): void {
  let m = cache.get(ctx);
  if (!m) cache.set(ctx, (m = new Map<string, string>()));
  m.set(seal, text);
  if (m.size > CACHED) m.delete(m.keys().next().value!);
}

const SEALS_SQL = `SELECT first_seq, seal FROM cold_segments
  WHERE game_id = $1 AND last_seq > $2 AND first_seq <= $3 ORDER BY first_seq`;
const DATA_SQL = `SELECT first_seq, seal, encode(data, 'base64') AS data FROM cold_segments
  WHERE game_id = $1 AND first_seq IN (SELECT json_array_elements_text($2::json)::int)`;

/**
 * The decompressed text of the segments holding any seq in (afterSeq, toSeq], in seq order. Their
 * seals first, and the bytes only of those not in the cache: a read near a cached segment (the
 * common case, paging or stateAt) then moves no segment bytes out of the database at all, where
 * fetching them each time cost more than the read itself.
 */
async function segmentTexts(
  ctx: StoreContext,
  gameId: string,
  afterSeq: number,
  toSeq: number,
): Promise<Array<{ first_seq: number; text: string }>> {
  const seals = await ctx.sql.rows<{ first_seq: number; seal: string }>(SEALS_SQL, [gameId, afterSeq, toSeq]);
  const texts = new Map(seals.map((s) => [s.first_seq, cached(ctx, s.seal)]));
  const missing = seals.filter((s) => texts.get(s.first_seq) === undefined).map((s) => s.first_seq);
  if (missing.length > 0) {
    for (const row of await ctx.sql.rows<{ first_seq: number; seal: string; data: string }>(DATA_SQL, [gameId, JSON.stringify(missing)])) {
      const text = decompress(Buffer.from(row.data, 'base64'));
      remember(ctx, row.seal, text);
      texts.set(row.first_seq, text);
    }
  }
  return seals.map((s) => {
    const text = texts.get(s.first_seq);
    // Segments are written once, by compaction; one gone between the two reads was deleted under us.
    if (text === undefined) throw new Error(`cold segment ${gameId}@${s.first_seq} vanished while being read`);
    return { first_seq: s.first_seq, text };
  });
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
  for (const s of await segmentTexts(ctx, gameId, afterSeq, toSeq)) {
    for (const e of segmentEvents(gameId, s.first_seq, s.text)) {
      if (e.seq <= afterSeq || e.seq > toSeq) continue;
      if (out.length === limit) return out;
      out.push(e);
    }
  }
  return out;
}
