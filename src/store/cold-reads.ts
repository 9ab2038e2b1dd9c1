import type { GameEvent } from '../protocol/index.js';
import { bool } from './cold-actions.js';
import { recall, remember } from './cold-cache.js';
import { segmentEvents } from './cold-codec.js';
import { checkSeals, decodeSegment, type SealRow } from './cold-seal.js';
import { fillLastHashes } from './cold-upgrade.js';
import type { StoreContext } from './context.js';
import { IntegrityError } from './errors.js';
import { GENESIS_HASH } from './hash.js';

// Every segment of the game (its row version too) and the head they must end at, in one round
// trip; the digest of a segment's bytes, computed where they lie, only for row versions whose seal
// this store has not checked yet ($2: their "first_seq:xmin"), so no byte leaves the database for it.
const SEALS_SQL = `SELECT g.last_seq AS head_seq, g.last_hash AS head_hash, g.compacted_at IS NOT NULL AS cold,
    s.first_seq, s.last_seq, s.last_turn, s.seal, s.last_hash, s.xmin::text AS version,
    CASE WHEN s.first_seq::text || ':' || s.xmin::text IN (SELECT json_array_elements_text($2::json)) THEN NULL
      ELSE encode(sha256(s.data), 'hex') END AS digest
  FROM games g LEFT JOIN cold_segments s ON s.game_id = g.game_id
  WHERE g.game_id = $1 ORDER BY s.first_seq`;
const DATA_SQL = `SELECT first_seq, xmin::text AS version, encode(data, 'base64') AS data FROM cold_segments
  WHERE game_id = $1 AND first_seq IN (SELECT json_array_elements_text($2::json)::int)`;

type SealsRow = { head_seq: number; head_hash: string; cold: unknown } & ({ first_seq: null } | (SealRow & { last_hash: string | null }));

const sealRows = (ctx: StoreContext, gameId: string, checked: readonly string[]) =>
  ctx.sql.rows<SealsRow>(SEALS_SQL, [gameId, JSON.stringify(checked)]);

/**
 * A cold game's segments, every seal checked (checkSeals), or null for a game with none that is
 * not cold (hot, or unknown). Segments from before last hashes were kept are checked from genesis
 * once, and their last hashes filled in (cold-upgrade.ts).
 */
async function sealedSegments(ctx: StoreContext, gameId: string): Promise<SealRow[] | null> {
  let rows = await sealRows(ctx, gameId, recall(ctx, 'sealed', gameId)?.split(' ') ?? []);
  const head = rows[0] && { seq: rows[0].head_seq, hash: rows[0].head_hash };
  if (!head) return null;
  if (rows.some((r) => r.first_seq !== null && r.last_hash === null)) {
    await fillLastHashes(ctx, gameId, head);
    rows = await sealRows(ctx, gameId, []);
  }
  const segments = rows.filter((r): r is SealsRow & SealRow => r.first_seq !== null && r.last_hash !== null);
  if (segments.length < rows.filter((r) => r.first_seq !== null).length) throw new IntegrityError(gameId, 'events', 1, head.seq, 'a segment lost its last hash while being read');
  if (segments.length === 0 && !bool(rows[0]!.cold)) return null;
  checkSeals(gameId, head, segments);
  remember(ctx, 'sealed', gameId, segments.map((s) => `${s.first_seq}:${s.version}`).join(' '));
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

// A decoded segment's text is remembered under all its check took in: the row version (which any
// change to the row changes), its range and turn, and the hash its chain started from.
const textKey = (gameId: string, s: SealRow, prevHash: string) => `${gameId}|${s.first_seq}:${s.version}|${s.last_seq}|${s.last_turn}|${prevHash}`;

/**
 * The events of the segments holding seqs (afterSeq, toSeq], in seq order: from memory, or their
 * bytes fetched (only those not remembered: a read near a segment read before moves no bytes at
 * all) and decoded (decodeSegment).
 */
async function segmentEventLists(ctx: StoreContext, gameId: string, segments: readonly SealRow[], afterSeq: number, toSeq: number): Promise<GameEvent[][]> {
  const wanted = segments.flatMap((s, i) => {
    const prev = segments[i - 1]?.last_hash ?? GENESIS_HASH;
    return s.last_seq > afterSeq && s.first_seq <= toSeq ? [{ s, prev, key: textKey(gameId, s, prev) }] : [];
  });
  const out = new Map<number, GameEvent[]>();
  for (const w of wanted) {
    const text = recall(ctx, 'text', w.key);
    if (text !== undefined) out.set(w.s.first_seq, segmentEvents(gameId, w.s.first_seq, text));
  }
  const missing = wanted.filter((w) => !out.has(w.s.first_seq));
  if (missing.length === 0) return wanted.map((w) => out.get(w.s.first_seq)!);
  const rows = await ctx.sql.rows<{ first_seq: number; version: string; data: string }>(DATA_SQL, [gameId, JSON.stringify(missing.map((w) => w.s.first_seq))]);
  const fetched = new Map(rows.map((r) => [r.first_seq, r]));
  for (const w of missing) {
    const row = fetched.get(w.s.first_seq);
    // Segments are written once: one gone or changed between the two queries was altered under us.
    if (row?.version !== w.s.version) throw new IntegrityError(gameId, 'events', w.s.first_seq, w.s.last_seq, 'the segment changed while being read');
    const { text, events } = decodeSegment(gameId, w.s, w.prev, Buffer.from(row.data, 'base64'));
    remember(ctx, 'text', w.key, text);
    out.set(w.s.first_seq, events);
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
