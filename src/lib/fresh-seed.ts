import { randomBytes } from 'node:crypto';

/**
 * A fresh seed for a game nobody gave one, or a fork's reseed secret: 53 random bits from the OS
 * (every safe integer ≥ 0 is equally likely). It must be unguessable because it decides every
 * hand and draw — with a small or predictable seed a player could rebuild the deck. Math.random
 * would not do.
 *
 * @example freshSeed() // 6112730987011337
 */
export function freshSeed(): number {
  return Number(randomBytes(8).readBigUInt64BE() >> 11n);
}
