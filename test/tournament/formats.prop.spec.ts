import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCHEDULERS } from '../../src/tournament/formats.js';
import { FORMATS } from '../../src/tournament/types.js';
import { config, drive, NAMES, synthetic } from './support.js';

const arbConfig = fc
  .record({
    format: fc.constantFrom(...FORMATS),
    n: fc.integer({ min: 2, max: 9 }),
    k: fc.integer({ min: 2, max: 6 }),
    seeds: fc.integer({ min: 1, max: 3 }),
    seed: fc.integer({ min: 0, max: 2 ** 40 }),
    duplicate: fc.boolean(),
    max: fc.option(fc.integer({ min: 6, max: 80 }), { nil: null }),
  })
  .filter(({ n, k }) => k <= n)
  .map(({ format, n, k, seeds, seed, duplicate, max }) =>
    config({ format, entrants: NAMES.slice(0, n), seats: k, seeds, seed, duplicate, max_games: max === null ? null : Math.max(max, k) }),
  );

const strength = (a: string) => Number(a.slice(1)) / 4;

describe('every format', () => {
  it('schedules deterministically from its seed: the same config and results give the same games', () => {
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const once = drive(cfg, SCHEDULERS[cfg.format], synthetic(strength));
        const twice = drive(structuredClone(cfg), SCHEDULERS[cfg.format], synthetic(strength));
        expect(twice.batches).toEqual(once.batches);
        expect(once.results.length).toBeGreaterThan(0);
      }),
      { numRuns: 60 },
    );
  });

  it('gives every game a unique stable key, never seats an agent twice, and keeps max_games by whole duplicate groups', () => {
    fc.assert(
      fc.property(arbConfig, (cfg) => {
        const { results, batches } = drive(cfg, SCHEDULERS[cfg.format], synthetic(strength));
        const games = batches.flat();
        expect(new Set(games.map((g) => g.key)).size).toBe(games.length);
        for (const g of games) {
          expect(new Set(g.seats).size).toBe(cfg.seats);
          expect(g.seats.every((s) => cfg.entrants.includes(s))).toBe(true);
        }
        if (cfg.max_games !== null) expect(results.length).toBeLessThanOrEqual(cfg.max_games);
        // Whole groups: every deal (key minus rotation) is played in all k rotations when duplicate.
        const groups = new Map<string, number>();
        for (const g of games) groups.set(g.key.replace(/-p\d+$/, ''), (groups.get(g.key.replace(/-p\d+$/, '')) ?? 0) + 1);
        for (const size of groups.values()) expect(size).toBe(cfg.duplicate ? cfg.seats : 1);
        // Duplicates of one deal share its seed and seat the same entrants.
        const bySeed = new Map<string, { seed: number; set: string }>();
        for (const g of games) {
          const id = g.key.replace(/-p\d+$/, '');
          const seen = bySeed.get(id) ?? { seed: g.seed, set: [...g.seats].sort().join() };
          expect(g.seed).toBe(seen.seed);
          expect([...g.seats].sort().join()).toBe(seen.set);
          bySeed.set(id, seen);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('derives different game seeds from different tournament seeds', () => {
    fc.assert(
      fc.property(arbConfig, fc.integer({ min: 1, max: 1000 }), (cfg, delta) => {
        const a = drive(cfg, SCHEDULERS[cfg.format], synthetic(strength)).batches.flat();
        const b = drive({ ...cfg, seed: cfg.seed + delta }, SCHEDULERS[cfg.format], synthetic(strength)).batches.flat();
        expect(b.map((g) => g.seed)).not.toEqual(a.map((g) => g.seed));
      }),
      { numRuns: 30 },
    );
  });
});
