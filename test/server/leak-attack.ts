/**
 * The chain-hash attack an outside observer would run against a public hash, as test code: take
 * the public (projected) events, fill their redacted parts with candidate hidden contents, hash
 * them the way the store does (src/store/hash.ts: sha256 over the previous hash and the event's
 * canonical JSON) and compare with a hash seen in public. Candidates come from the admin stream
 * (the truth, plus decoys), which makes this attacker stronger than any real one: if even the
 * truth reproduces no public hash, no guess can.
 */
import type { GameEvent } from '../../src/protocol/index.js';
import { chainHashes, eventHash } from '../../src/store/hash.js';

/** Hidden contents to try for one event: payload keys (the redacted ones), its audience lists and PRNG state. */
export type Candidate = { payload: Record<string, unknown>; visibility: GameEvent['visibility']; rng?: GameEvent['rng'] };

/** The candidate that is the truth: what the admin stream shows for the keys the public copy lacks. */
export function truthFor(pub: GameEvent, full: GameEvent): Candidate {
  const redacted = (pub as { redacted?: string[] }).redacted ?? [];
  const payload = Object.fromEntries(redacted.flatMap((k) => (k in full.payload ? [[k, (full.payload as Record<string, unknown>)[k]]] : [])));
  return { payload, visibility: full.visibility, ...(full.rng !== undefined ? { rng: full.rng } : {}) };
}

/** A public event with candidate hidden contents filled in: what the chain would have hashed if the guess is right. */
export function reconstruct(pub: GameEvent, guess: Candidate): GameEvent {
  const { redacted: _r, rng: _g, ...rest } = pub;
  return { ...rest, payload: { ...pub.payload, ...guess.payload }, visibility: guess.visibility, ...(guess.rng !== undefined ? { rng: guess.rng } : {}) } as GameEvent;
}

/** The hash after chaining `events` onto `from`. */
export function chainFrom(from: string, events: readonly GameEvent[]): string {
  return events.reduce((h, e) => eventHash(h, e), from);
}

/** Every link of the true chain (seq → hash) for a whole log, from the genesis hash. */
export function trueChain(genesis: string, log: readonly GameEvent[]): Map<number, string> {
  const hashes = chainHashes(genesis, log);
  return new Map(log.map((e, i) => [e.seq, hashes[i]!]));
}

const HEX64 = /\b[0-9a-f]{64}\b/g;

/** Every sha256-looking value (64 hex chars) anywhere in a JSON value, e.g. a response or a socket message. */
export function hashesIn(value: unknown): string[] {
  return JSON.stringify(value)?.match(HEX64) ?? [];
}

/** Every string in a JSON value (keys excluded), for scanning for hidden texts. */
export function stringsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, out);
  return out;
}
