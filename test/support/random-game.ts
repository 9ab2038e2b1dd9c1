import fc from 'fast-check';
import { initialState, type GameState } from '../../src/game/index.js';

/** A random game to drive: any seat count, round cap, window mode and rules version, a driver seed and a share of illegal inputs. */
export const randomGame = fc.record({
  seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 2, max: 6 }),
  round_cap: fc.integer({ min: 4, max: 10 }),
  compact: fc.boolean(),
  v1: fc.boolean(),
  driver: fc.integer(),
  illegal: fc.constantFrom(0, 0.2),
});
export type RandomGame = typeof randomGame extends fc.Arbitrary<infer T> ? T : never;

/** The game's state before the start. */
export function stateOf(g: RandomGame): GameState {
  const rules = { round_cap: g.round_cap, windows: g.compact ? ('compact' as const) : ('full' as const), ...(g.v1 ? { rules_version: '1.0.0' } : {}) };
  return initialState({ seats: g.seats, rules }, g.seed);
}
