import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { GameEvent } from '../protocol/index.js';
import type { StoredRow } from './event-rows.js';

/**
 * The cold form of a game's events (cold_segments): per segment, brotli of the JSON array
 * `[schema_version, tuple, tuple, …]` where a tuple is
 * `[turn, phase, type, ts, payload, visibility, rng, annotations]` (rng/annotations null when
 * the event has none), followed by `[schema_version, event_id]` only for an event whose
 * schema_version differs from the segment's or whose id is not the engine's `evt_<game>_<seq>`.
 * game_id and seq come from the row; hash and prev_hash are dropped: one seal per segment
 * (segmentSeal) binds the recomputed chain to the stored bytes.
 */
export const SEGMENT_EVENTS = 200;

/** The id the engine gives event `seq` of `gameId` (src/game/context.ts). */
export const derivedEventId = (gameId: string, seq: number) => `evt_${gameId.slice(5)}_${seq}`;

// Quality 5 with a 4 MB window. Measured over 24 four-seat built-in games (441,734 bytes of
// segment JSON a game): quality 5 keeps 39,606 bytes in 5.4 ms of CPU, 7 keeps 37,999 in 25 ms,
// 9 keeps 37,527 in 45.6 ms. Whole games are compressed as they are stored (cold-game.ts), on the
// tournament's hot path, where 40 ms a game halved the persisted rate: 5 % more bytes buys it back.
const BROTLI = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 5,
    [constants.BROTLI_PARAM_LGWIN]: 22,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};

export const compress = (text: string): Buffer => brotliCompressSync(Buffer.from(text, 'utf8'), BROTLI);

const brotliAsync = promisify(brotliCompress);
/** `compress` on libuv's thread pool (same bytes): a server compacting in the background keeps its event loop free. */
export const compressAsync = (text: string): Promise<Buffer> => brotliAsync(Buffer.from(text, 'utf8'), BROTLI);

/** The text `compress` was given; throws on bytes that are not a whole brotli stream. */
export const decompress = (data: Buffer): string => brotliDecompressSync(data).toString('utf8');

/** sha256 hex of some bytes or text. */
export const sha256 = (data: Buffer | string): string => hash('sha256', data, 'hex');

/** A seal from the sha256 (hex) of the bytes it binds: what a read checks without the bytes at hand (cold-seal.ts). */
export const sealOf = (chainHash: string, digest: string): string => sha256(chainHash + digest);

/** A segment's seal: the hash chain at its last seq, bound to the bytes stored. */
export const segmentSeal = (chainHash: string, data: Buffer): string => sealOf(chainHash, sha256(data));

/**
 * The JSON text of one segment from stored rows (json columns kept as the text they hold, so no
 * value is parsed and re-serialised on the way).
 */
export function segmentJson(gameId: string, rows: readonly StoredRow[]): string {
  const version = rows[0]?.schema_version ?? '';
  const parts = rows.map((r) => {
    const base =
      r.turn + ',' + JSON.stringify(r.phase) + ',' + JSON.stringify(r.type) + ',' + JSON.stringify(r.ts) + ',' +
      r.payload + ',' + r.visibility + ',' + (r.rng ?? 'null') + ',' + (r.annotations ?? 'null');
    const odd = r.schema_version !== version || r.event_id !== derivedEventId(gameId, r.seq);
    return '[' + base + (odd ? ',' + JSON.stringify(r.schema_version) + ',' + JSON.stringify(r.event_id) : '') + ']';
  });
  return '[' + JSON.stringify(version) + (parts.length ? ',' + parts.join(',') : '') + ']';
}

type Tuple = [number, string, string, string, unknown, unknown, unknown, Record<string, unknown> | null, string?, string?];

/** The annotation keys, in the engine's order (event-rows.ts ANNOTATIONS). */
const ANNOTATIONS = ['faces', 'slots', 'tells'] as const;

/**
 * The events of a segment's JSON text whose first seq is `firstSeq`, with the envelope keys in
 * the engine's order (as fromRow builds them), so JSON.stringify equals the hot read's.
 */
export function segmentEvents(gameId: string, firstSeq: number, text: string): GameEvent[] {
  const [version, ...tuples] = JSON.parse(text) as [string, ...Tuple[]];
  return tuples.map((t, i) => {
    const seq = firstSeq + i;
    const e: Record<string, unknown> = {
      schema_version: t[8] ?? version,
      event_id: t[9] ?? derivedEventId(gameId, seq),
      game_id: gameId,
      seq,
      turn: t[0],
      phase: t[1],
      type: t[2],
      ts: t[3],
      payload: t[4],
      visibility: t[5],
    };
    if (t[6] !== null) e.rng = t[6];
    const a = t[7];
    if (a !== null) for (const k of ANNOTATIONS) if (a[k] !== undefined) e[k] = a[k];
    return e as GameEvent;
  });
}
