import type { GameEvent } from '../protocol/index.js';
import { bool } from './cold-actions.js';
import { segmentEvents } from './cold-codec.js';
import { checkSeals, decodeSegment, type SealRow } from './cold-seal.js';
import { fillLastHashes } from './cold-upgrade.js';
import type { StoreContext } from './context.js';
import { IntegrityError } from './errors.js';
import { GENESIS_HASH } from './hash.js';

// Every segment of the game with the digest of its bytes, computed where they lie, and the head
// they must end at: one round trip, and no segment's bytes leave the database for the check.
const SEALS_SQL = `SELECT g.last_seq AS head_seq, g.last_hash AS head_hash, g.compacted_at IS NOT NULL AS cold,
    s.first_seq, s.last_seq, s.last_turn, s.seal, s.last_hash, encode(sha256(s.data), 'hex') AS digest
  FROM games g LEFT JOIN cold_segments s ON s.game_id = g.game_id
  WHERE g.game_id = $1 ORDER BY s.first_seq`;
const DATA_SQL = `SELECT first_seq, encode(data, 'base64') AS data FROM cold_segments
  WHERE game_id = $1 AND first_seq IN (SELECT json_array_elements_text($2::json)::int)`;

type SealsRow = { head_seq: number; head_hash: string; cold: unknown } & ({ first_seq: null } | (SealRow & { last_hash: string | null }));

/**
 * A cold game's segments, every seal checked (checkSeals), or null for a game with none that is
 * not cold (hot, or unknown). Segments from before last hashes were kept are checked from genesis
 * once, and their last hashes filled in (cold-upgrade.ts).
 */
async function sealedSegments(ctx: StoreContext, gameId: string): Promise<SealRow[] | null> {
  let rows = await ctx.sql.rows<SealsRow>(SEALS_SQL, [gameId]);
  const head = rows[0] && { seq: rows[0].head_seq, hash: rows[0].head_hash };
  if (!head) return null;
  if (rows.some((r) => r.first_seq !== null && r.last_hash === null)) {
    await fillLastHashes(ctx, gameId, head);
    rows = await ctx.sql.rows<SealsRow>(SEALS_SQL, [gameId]);
  }
  const segments = rows.filter((r): r is SealsRow & SealRow => r.first_seq !== null && r.last_hash !== null);
  if (segments.length < rows.filter((r) => r.first_seq !== null).length) throw new IntegrityError(gameId, 'events', 1, head.seq, 'a segment lost its last hash while being read');
  if (segments.length === 0 && !bool(rows[0]!.cold)) return null;
  checkSeals(gameId, head, segments);
  return segments;
}

/**
 * Checks a game's cold segments (checkSeals) without moving or decoding a byte of them: for reads
 * that use none of them (a state from a snapshot), so a game whose log fails its check is refused
 * whichever way it is read. A hot or unknown game passes.
 *
 * @example await checkColdSeals(ctx, 'game_s1') // or an IntegrityError
 */
export async function checkColdSeals(ctx: StoreContext, gameId: string): Promise<void> {
  await sealedSegments(ctx, gameId);
}

// Decoded segments a store read lately (the text, parsed afresh per read so no caller shares
// objects with another): a spectator paging an ended game or stateAt near a snapshot reads the
// same segment again and again. Only text that decoded and chained is kept, keyed by all that
// went into that check (the seal names the bytes and the last hash); each read checks the seals
// first, so an entry is served only while the stored segment still matches it.
const CACHED = 64;
const cache = new WeakMap<StoreContext, Map<string, string>>();
const keyOf = (s: SealRow, prevHash: string) => `${s.seal}|${s.first_seq}|${s.last_seq}|${s.last_turn}|${prevHash}`;

function cached(ctx: StoreContext, key: string): string | undefined {
  const m = cache.get(ctx);
  const hit = m?.get(key);
  if (hit === undefined) return undefined;
  m!.delete(key);
  m!.set(key, hit);
  return hit;
}

function remember(ctx: StoreContext, key: string, text: string): void {
  let m = cache.get(ctx);
  if (!m) cache.set(ctx, (m = new Map<string, string>()));
  m.set(key, text);
  if (m.size > CACHED) m.delete(m.keys().next().value!);
}

/**
 * The events of the segments holding seqs (afterSeq, toSeq], in seq order: from the cache, or
 * their bytes fetched (only those not cached: a read near a cached segment moves no bytes at all)
 * and decoded (decodeSegment).
 */
async function segmentEventLists(ctx: StoreContext, gameId: string, segments: readonly SealRow[], afterSeq: number, toSeq: number): Promise<GameEvent[][]> {
  const wanted = segments.flatMap((s, i) =>
    s.last_seq > afterSeq && s.first_seq <= toSeq ? [{ s, key: keyOf(s, segments[i - 1]?.last_hash ?? GENESIS_HASH), prev: segments[i - 1]?.last_hash ?? GENESIS_HASH }] : [],
  );
  const out = new Map<number, GameEvent[]>();
  for (const w of wanted) {
    const text = cached(ctx, w.key);
    if (text !== undefined) out.set(w.s.first_seq, segmentEvents(gameId, w.s.first_seq, text));
  }
  const missing = wanted.filter((w) => !out.has(w.s.first_seq));
  if (missing.length > 0) {
    const rows = await ctx.sql.rows<{ first_seq: number; data: string }>(DATA_SQL, [gameId, JSON.stringify(missing.map((w) => w.s.first_seq))]);
    const data = new Map(rows.map((r) => [r.first_seq, r.data]));
    for (const w of missing) {
      const bytes = data.get(w.s.first_seq);
      // Segments are written once; one gone between the two reads was deleted under us.
      if (bytes === undefined) throw new IntegrityError(gameId, 'events', w.s.first_seq, w.s.last_seq, 'the segment vanished while being read');
      const { text, events } = decodeSegment(gameId, w.s, w.prev, Buffer.from(bytes, 'base64'));
      remember(ctx, w.key, text);
      out.set(w.s.first_seq, events);
    }
  }
  return wanted.map((w) => out.get(w.s.first_seq)!);
}

/**
 * The events of a cold game with afterSeq < seq ≤ toSeq, in seq order, at most `limit` — once
 * every segment's seal has been checked (a failure is an IntegrityError, never altered events).
 * Empty for a game that is not cold.
 */
export async function readCold(
  ctx: StoreContext,
  gameId: string,
  afterSeq: number,
  toSeq: number,
  limit: number,
): Promise<GameEvent[]> {
  const segments = await sealedSegments(ctx, gameId);
  if (!segments) return [];
  // The seal check made them contiguous from 1: the page ends at seq afterSeq + limit at most.
  const upTo = Math.min(toSeq, afterSeq + limit);
  const out: GameEvent[] = [];
  for (const events of await segmentEventLists(ctx, gameId, segments, afterSeq, upTo)) {
    for (const e of events) if (e.seq > afterSeq && e.seq <= upTo) out.push(e);
  }
  return out;
}
