import type { GameEvent } from '../protocol/index.js';
import { decompress, sealOf, segmentEvents, sha256 } from './cold-codec.js';
import type { Head } from './context.js';
import { IntegrityError } from './errors.js';
import { chainHashes } from './hash.js';

/**
 * A cold segment as every read checks it: its columns, its row version (xmin: any change to the
 * row changes it), and `digest`, the sha256 (hex) of its stored bytes, computed by the database
 * where they lie (so checking a segment moves none of them) — or null when this row version's
 * seal was checked before (cold-cache.ts `sealed`).
 */
export type SealRow = { first_seq: number; last_seq: number; last_turn: number; seal: string; last_hash: string; version: string; digest: string | null };

const broken = (gameId: string, s: { first_seq: number; last_seq: number }, reason: string, cause?: unknown) =>
  new IntegrityError(gameId, 'events', s.first_seq, s.last_seq, reason, cause === undefined ? undefined : { cause });

/**
 * Checks every segment of a cold game before any byte of one is used: each seal against its last
 * hash and the digest of its bytes (unless that row version passed before), the seq ranges contiguous from 1, and the last segment ending
 * at the game's head (its seq and hash in `games`). Whatever a read then serves is sealed, and
 * each segment's chain starts where the one before it, sealed too, ended. Throws IntegrityError.
 *
 * @example checkSeals('game_s1', await readHead(ctx, 'game_s1'), rows)
 */
export function checkSeals(gameId: string, head: Head, segments: readonly SealRow[]): void {
  let seq = 0;
  for (const s of segments) {
    if (s.first_seq !== seq + 1) throw broken(gameId, { first_seq: seq + 1, last_seq: Math.max(seq + 1, s.first_seq - 1) }, `no segment starts at seq ${seq + 1}`);
    if (s.last_seq < s.first_seq) throw broken(gameId, s, 'its seq range is empty');
    if (s.digest !== null && sealOf(s.last_hash, s.digest) !== s.seal) throw broken(gameId, s, "the segment's bytes, seal or last hash do not match");
    seq = s.last_seq;
  }
  if (seq < head.seq) throw broken(gameId, { first_seq: seq + 1, last_seq: head.seq }, 'no segment holds them');
  const last = segments.at(-1);
  if (last && (last.last_seq !== head.seq || last.last_hash !== head.hash)) throw broken(gameId, last, "the last segment does not end at the game's head");
}

/**
 * The events of one segment's stored bytes, checked again against its seal (the bytes themselves
 * this time), then decoded and re-hashed: they must hold last_seq − first_seq + 1 events, end at
 * last_turn, and chain from `prevHash` (the last hash of the segment before, or genesis) to the
 * segment's last hash. Returns the text too, for the cache.
 */
export function decodeSegment(gameId: string, s: SealRow, prevHash: string, data: Buffer): { text: string; events: GameEvent[] } {
  if (sealOf(s.last_hash, sha256(data)) !== s.seal) throw broken(gameId, s, "the segment's bytes do not match its seal");
  let text: string;
  let events: GameEvent[];
  try {
    text = decompress(data);
    events = segmentEvents(gameId, s.first_seq, text);
  } catch (e) {
    throw broken(gameId, s, 'the sealed bytes do not decode', e);
  }
  if (events.length !== s.last_seq - s.first_seq + 1 || events.at(-1)?.turn !== s.last_turn)
    throw broken(gameId, s, 'the decoded events do not fill its seq range');
  if (chainHashes(prevHash, events).at(-1) !== s.last_hash) throw broken(gameId, s, 'the decoded events do not hash to the stored chain');
  return { text, events };
}
