import type { GameEvent } from '../protocol/index.js';
import { readCold } from './cold-reads.js';
import type { StoreContext } from './context.js';
import { IntegrityError } from './errors.js';
import { fromRow, type StoredRow } from './event-rows.js';
import { GENESIS_HASH } from './hash.js';

/** The columns an event is rebuilt from; ts as the exact text Date#toISOString wrote. */
const EVENT_COLUMNS = `seq, event_id, schema_version, turn, phase, type,
  to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts, payload, visibility, rng, annotations, prev_hash, hash`;

const RANGE_SQL = `SELECT ${EVENT_COLUMNS} FROM events WHERE game_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`;
const BY_IDS_SQL = `SELECT ${EVENT_COLUMNS} FROM events
  WHERE game_id = $1 AND event_id IN (SELECT json_array_elements_text($2::json))`;

const MAX_SEQ = 2 ** 31 - 1;

/** Stored rows (hashes included) with afterSeq < seq ≤ toSeq, in seq order, at most `limit`. */
export function readRows(
  ctx: StoreContext,
  gameId: string,
  afterSeq: number,
  toSeq = MAX_SEQ,
  limit = MAX_SEQ,
): Promise<StoredRow[]> {
  return ctx.sql.rows<StoredRow>(RANGE_SQL, [gameId, afterSeq, toSeq, limit]);
}

/**
 * The events with afterSeq < seq ≤ toSeq, in seq order, at most `limit`, hot or cold. A game's
 * events are all rows of `events` or all cold segments (compaction moves them in one statement), so
 * a range holding any row is hot, and only an empty one needs a look at cold_segments.
 */
export async function readEvents(
  ctx: StoreContext,
  gameId: string,
  afterSeq: number,
  toSeq = MAX_SEQ,
  limit = MAX_SEQ,
): Promise<GameEvent[]> {
  const rows = await readRows(ctx, gameId, afterSeq, toSeq, limit);
  if (rows.length > 0 || limit <= 0) return linked(gameId, afterSeq, rows).map((r) => fromRow(gameId, r));
  return readCold(ctx, gameId, afterSeq, toSeq, limit);
}

/**
 * Hot rows as a read checks them: contiguous from afterSeq + 1, each one's prev_hash its
 * predecessor's hash (the first's the genesis hash, from seq 1). A string comparison per row; a
 * row's hash against its content costs a canonical JSON and a sha256 per event (~7 µs, most of a
 * 1,000-event page's read again: bench/seal.ts), so that stays verifyChain's.
 */
function linked(gameId: string, afterSeq: number, rows: readonly StoredRow[]): readonly StoredRow[] {
  let prev = afterSeq === 0 ? GENESIS_HASH : null;
  let seq = afterSeq;
  for (const r of rows) {
    if (r.seq !== seq + 1 || (prev !== null && r.prev_hash !== prev))
      throw new IntegrityError(gameId, 'events', Math.max(seq, 1), r.seq, 'an event does not link to the one before it');
    prev = r.hash;
    seq = r.seq;
  }
  return rows;
}

/**
 * Events after `afterSeq`, in seq order, at most `limit` (a page: call again from the last seq).
 * They read back exactly as appended (JSON.stringify of both is equal), whether the game is hot or
 * compacted. An unknown game reads as empty.
 *
 * @example for (let after = 0, page; (page = await read(ctx, id, after)).length; after = page.at(-1)!.seq) …
 */
export async function read(
  ctx: StoreContext,
  gameId: string,
  afterSeq = 0,
  limit = 1000,
): Promise<GameEvent[]> {
  return readEvents(ctx, gameId, afterSeq, MAX_SEQ, limit);
}

/** The stored events among `eventIds`, by event_id (for idempotent re-appends). */
export async function readByEventIds(
  ctx: StoreContext,
  gameId: string,
  eventIds: readonly string[],
): Promise<Map<string, GameEvent>> {
  const rows = await ctx.sql.rows<StoredRow>(BY_IDS_SQL, [gameId, JSON.stringify(eventIds)]);
  if (rows.length > 0) return new Map(rows.map((r) => [r.event_id, fromRow(gameId, r)]));
  // A compacted game: its whole log (an ended game's, re-appended only by a retry).
  const wanted = new Set(eventIds);
  const cold = (await readCold(ctx, gameId, 0, MAX_SEQ, MAX_SEQ)).filter((e) => wanted.has(e.event_id));
  return new Map(cold.map((e) => [e.event_id, e]));
}
