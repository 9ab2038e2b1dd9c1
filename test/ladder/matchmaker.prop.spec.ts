import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dealRotations, defaultMaxIdle } from '../../src/ladder/matchmaker.js';
import { drive, names, type Drive, type FieldEvent } from './support.js';

/** A random small ladder: a field, strengths, seats, options, newcomers joining and entrants retiring on the way. */
const arbLadder = fc
  .record({
    n: fc.integer({ min: 2, max: 9 }),
    seats: fc.integer({ min: 2, max: 5 }),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    spread: fc.double({ min: 0, max: 3, noNaN: true }),
    deals: fc.integer({ min: 10, max: 45 }),
    joins: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 3 }),
    retire: fc.option(fc.integer({ min: 1, max: 40 }), { nil: null }),
    placement: fc.integer({ min: 0, max: 12 }),
    maxIdle: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
    focus: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  })
  .filter(({ n, seats }) => seats <= n)
  .map(({ n, seats, seed, spread, deals, joins, retire, placement, maxIdle, focus }): Drive => {
    const events: FieldEvent[] = joins.map((at, i) => ({ at, join: `new${i}` }));
    // Retire one of the initial entrants only while enough stay to fill a table.
    if (retire !== null && n + joins.filter((at) => at <= retire).length > seats) events.push({ at: retire, retire: 'e0' });
    return {
      seed,
      seats,
      initial: names(n),
      strength: (id) => (spread * (id.charCodeAt(id.length - 1) % 7)) / 7,
      deals,
      events,
      options: { placement_games: placement, max_idle_deals: maxIdle, focus_top: focus },
    };
  });

describe('the matchmaker', () => {
  it('is deterministic for a seed: the same ladder gives the same line-ups', () => {
    fc.assert(
      fc.property(arbLadder, (d) => {
        expect(drive(d).deals.map((x) => x.lineup)).toEqual(drive(d).deals.map((x) => x.lineup));
      }),
      { numRuns: 25 },
    );
  });

  it('seats `seats` distinct active entrants, and a deal played in all its rotations is complete', () => {
    fc.assert(
      fc.property(arbLadder, (d) => {
        for (const s of drive(d).steps) {
          if (!s.match.ok) throw new Error(s.match.message);
          const lineup = s.match.lineup;
          const activeIds = new Set(s.entrants.filter((e) => e.status === 'active').map((e) => e.id));
          expect(new Set(lineup).size).toBe(d.seats);
          expect(lineup.every((id) => activeIds.has(id))).toBe(true);
          const games = dealRotations(lineup);
          expect(games).toHaveLength(d.seats);
          for (let seat = 0; seat < d.seats; seat++) expect(new Set(games.map((g) => g[seat])).size).toBe(d.seats);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('keeps every active entrant scheduled: none sits out more than max_idle + ⌈active / seats⌉ deals', () => {
    fc.assert(
      fc.property(arbLadder, (d) => {
        const { steps } = drive(d);
        let most = 0;
        for (const s of steps) {
          const active = s.entrants.filter((e) => e.status === 'active');
          most = Math.max(most, active.length);
          const bound = (d.options!.max_idle_deals ?? defaultMaxIdle(active.length, d.seats)) + Math.ceil(most / d.seats);
          const last = new Map<string, number>();
          s.deals.forEach((x, i) => x.lineup.forEach((id) => last.set(id, i)));
          for (const e of active) {
            const idle = s.deals.length - Math.max((last.get(e.id) ?? -1) + 1, e.joined_at);
            expect(idle).toBeLessThanOrEqual(bound);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('places newcomers first: unless someone is idle too long, the line-up holds as many newcomers as fit', () => {
    fc.assert(
      fc.property(arbLadder, (d) => {
        for (const s of drive(d).steps) {
          if (!s.match.ok || s.match.reason === 'idle') continue;
          const games = new Map<string, number>();
          for (const x of s.deals) for (const g of x.games) for (const id of g.seats) games.set(id, (games.get(id) ?? 0) + 1);
          const newcomers = s.entrants.filter((e) => e.status === 'active' && (games.get(e.id) ?? 0) < d.options!.placement_games!);
          const seated = s.match.lineup.filter((id) => newcomers.some((e) => e.id === id)).length;
          expect(seated).toBe(Math.min(d.seats, newcomers.length));
          expect(s.match.reason).toBe(newcomers.length > 0 ? 'placement' : 'information');
        }
      }),
      { numRuns: 40 },
    );
  });
});
