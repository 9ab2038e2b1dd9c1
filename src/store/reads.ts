import type { GameEvent } from '../protocol/index.js';
import type { StoreContext } from './context.js';
import { fromRow, type StoredRow } from './event-rows.js';

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
 * Events after `afterSeq`, in seq order, at most `limit` (a page: call again from the last seq).
 * They read back exactly as appended (JSON.stringify of both is equal). An unknown game reads as
 * empty.
 *
 * @example for (let after = 0, page; (page = await read(ctx, id, after)).length; after = page.at(-1)!.seq) …
 */
export async function read(
  ctx: StoreContext,
  gameId: string,
  afterSeq = 0,
  limit = 1000,
): Promise<GameEvent[]> {
  const rows = await readRows(ctx, gameId, afterSeq, MAX_SEQ, limit);
  return rows.map((r) => fromRow(gameId, r));
}

/** The stored events among `eventIds`, by event_id (for idempotent re-appends). */
export async function readByEventIds(
  ctx: StoreContext,
  gameId: string,
  eventIds: readonly string[],
): Promise<Map<string, GameEvent>> {
  const rows = await ctx.sql.rows<StoredRow>(BY_IDS_SQL, [gameId, JSON.stringify(eventIds)]);
  return new Map(rows.map((r) => [r.event_id, fromRow(gameId, r)]));
}
