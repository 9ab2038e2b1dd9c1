import seedrandom from 'seedrandom';

/** Game seeds stay in the engine's comfortable range (a positive 31-bit integer). */
const SEED_SPACE = 0x7fffffff;

/**
 * A seed derived from the tournament seed and a path of labels (cyrb53, a pure 53-bit string
 * hash), so a game's seed depends only on where it sits in the schedule — never on the order
 * games were generated in, and never on Math.random.
 *
 * @example deriveSeed(7, 'round-robin', 0, 3) // the seed of table 3 in seed-round 0
 */
export function deriveSeed(seed: number, ...path: readonly (string | number)[]): number {
  return hash53([seed, ...path].join('/')) % SEED_SPACE;
}

/** cyrb53: a fast, well-mixed 53-bit hash of a string (`salt` gives independent hashes). */
export function hash53(text: string, salt = 0): number {
  let h1 = 0xdeadbeef ^ salt;
  let h2 = 0x41c6ce57 ^ salt;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A seeded uniform [0, 1) generator (seedrandom's alea) for draws such as swiss tie orders. */
export function prng(seed: number, ...path: readonly (string | number)[]): () => number {
  return seedrandom.alea(String(deriveSeed(seed, ...path)));
}

/** A seeded Fisher–Yates shuffle (a copy; the input is left alone). */
export function shuffled<T>(items: readonly T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
