import { hash } from 'node:crypto';
import type { GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { canonicalJson } from './canonical-json.js';

/** prev_hash of every game's first event: 64 zeros, so the chain has a fixed, known root. */
export const GENESIS_HASH = '0'.repeat(64);

/**
 * One link of the chain: sha256 over the previous hash (64 hex chars) followed by the canonical
 * JSON (RFC 8785) of the whole event envelope as appended, rng included. Hex-encoded.
 *
 * @example eventHash(GENESIS_HASH, firstEvent) // → 'a3f1…' (64 hex chars)
 */
export function eventHash(prevHash: string, event: GameEvent): string {
  // One-shot crypto.hash over the concatenation (the same bytes as two update() calls: the hex
  // prefix is ASCII): a Hash object per event cost more than hashing its ~600 bytes.
  return hash('sha256', prevHash + canonicalJson(event), 'hex');
}

/** The hashes of `events` chained onto `prevHash`, in order. */
export function chainHashes(prevHash: string, events: readonly GameEvent[]): string[] {
  const out: string[] = [];
  let prev = prevHash;
  for (const e of events) {
    prev = eventHash(prev, e);
    out.push(prev);
  }
  return out;
}

/**
 * The state hash snapshots carry: sha256 of the canonical JSON of a GameState, hex. Two states
 * hash the same exactly when they are equal as JSON values, whatever their key order.
 *
 * @example stateHash(fold(initial, events)) === stateHash(liveState)
 */
export function stateHash(state: GameState): string {
  return hash('sha256', canonicalJson(state), 'hex');
}
