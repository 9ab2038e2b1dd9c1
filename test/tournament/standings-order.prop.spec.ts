import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundRobin } from '../../src/tournament/round-robin.js';
import { separated } from '../../src/tournament/separation.js';
import { computeStandings, standings } from '../../src/tournament/standings.js';
import { swiss } from '../../src/tournament/swiss.js';
import type { GameResult } from '../../src/tournament/types.js';
import { config, drive, NAMES, synthetic } from './support.js';

const entrants = NAMES.slice(0, 6);
const strength = (a: string) => Number(a.slice(1)) * 0.3;

/** A permutation of `xs` drawn by fast-check (every order reachable). */
const permutationOf = <T>(xs: readonly T[]) => fc.shuffledSubarray([...xs], { minLength: xs.length, maxLength: xs.length });

describe('standings do not depend on the order results arrive in', () => {
  const rr = config({ format: 'round-robin', entrants, seats: 4, seeds: 2, seed: 3 });
  const rrResults = drive(rr, roundRobin, synthetic(strength, 2)).results;
  const sw = config({ format: 'swiss', entrants, seats: 3, rounds: 4, seed: 8 });
  // Ties too: placements rounded so that some seats share one.
  const swResults = drive(sw, swiss, synthetic(strength, 2)).results.map((r, i): GameResult => (i % 5 === 0 ? { ...r, placements: r.placements.map((p) => Math.min(p, 2)) } : r));

  for (const [name, cfg, results] of [['round-robin', rr, rrResults], ['swiss with ties', sw, swResults]] as const)
    it(`${name}: any permutation gives the same table — values, intervals and order, bit for bit`, () => {
      const reference = standings(cfg, results, { resamples: 100 });
      fc.assert(
        fc.property(permutationOf(results), (shuffled) => {
          // Computed afresh (past the memo), from a copy that shares nothing with the reference.
          const table = computeStandings(structuredClone(cfg), structuredClone(shuffled), 100);
          expect(table).toStrictEqual(reference);
          expect(separated(table, { top_k: 1, min_games: 1 })).toBe(separated(reference, { top_k: 1, min_games: 1 }));
        }),
        { numRuns: 25, seed: 26 },
      );
      // And the memo hands back the same table for any order.
      expect(standings(cfg, [...results].reverse(), { resamples: 100 })).toStrictEqual(reference);
    });
});
