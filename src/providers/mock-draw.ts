import { createHash } from 'node:crypto';

/**
 * The mock's only source of chance: sha256 digests of what a call is about. Every choice it makes
 * (personality, answer, latency, failure) is read off a digest, so the same inputs give the same
 * call on any machine, in any order, in any process.
 */

/** sha256 (hex) of the parts, joined so that ('a', 'bc') and ('ab', 'c') differ. */
export function digest(...parts: ReadonlyArray<string | number>): string {
  const h = createHash('sha256');
  for (const p of parts) {
    const s = String(p);
    h.update(`${s.length}:${s};`);
  }
  return h.digest('hex');
}

/**
 * A number in [0, 1) drawn from a digest for one purpose: each purpose hashes again, so latency
 * and failure draws of one call are independent of each other.
 *
 * @example unit(digest('seed', 'req_1'), 'latency') // 0.4127… (always the same)
 */
export function unit(hex: string, purpose: string): number {
  // 48 bits fit a double exactly.
  return parseInt(digest(hex, purpose).slice(0, 12), 16) / 2 ** 48;
}

/** An integer in [lo, hi] drawn from a digest for one purpose. */
export const between = (hex: string, purpose: string, lo: number, hi: number): number =>
  lo + Math.min(hi - lo, Math.floor(unit(hex, purpose) * (hi - lo + 1)));
