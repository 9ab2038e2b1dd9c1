import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LABEL_SIZE, placeLabels, type Point } from '../../src/view/label-layout.js';
import { seatPoint } from '../../src/view/index.js';

/** How much of two labels centred at a and b cover each other (percent² of the table). */
const shared = (a: Point, b: Point) =>
  Math.max(0, LABEL_SIZE.w - Math.abs(a.x - b.x)) * Math.max(0, LABEL_SIZE.h - Math.abs(a.y - b.y));

const tables = fc.integer({ min: 2, max: 6 }).chain((n) =>
  fc.record({
    n: fc.constant(n),
    pairs: fc.array(
      fc.tuple(fc.nat(n - 1), fc.nat(n - 1)).filter(([a, b]) => a !== b),
      { minLength: 1, maxLength: 3 },
    ),
  }),
);

describe('attack labels on the table (label-layout.ts)', () => {
  it('given up to three attacks among any seats, then no label hides more than a corner of another (where three fit nowhere else, as between two seats), each stays on the table, and the same attacks land alike', () => {
    fc.assert(
      fc.property(tables, ({ n, pairs }) => {
        const seats = Array.from({ length: n }, (_, i) => seatPoint(i, n));
        const arrows = pairs.map(([a, b]) => ({ from: seats[a]!, to: seats[b]! }));
        const spots = placeLabels(arrows, seats);
        expect(spots).toHaveLength(arrows.length);
        expect(placeLabels(arrows, seats)).toEqual(spots);
        for (const s of spots) {
          expect(s.x - LABEL_SIZE.w / 2).toBeGreaterThanOrEqual(0);
          expect(s.x + LABEL_SIZE.w / 2).toBeLessThanOrEqual(100);
          expect(s.y - LABEL_SIZE.h / 2).toBeGreaterThanOrEqual(0);
          expect(s.y + LABEL_SIZE.h / 2).toBeLessThanOrEqual(100);
        }
        for (let i = 0; i < spots.length; i++) for (let j = i + 1; j < spots.length; j++) expect(shared(spots[i]!, spots[j]!), `labels ${i} and ${j}`).toBeLessThanOrEqual(0.15 * LABEL_SIZE.w * LABEL_SIZE.h);
      }),
      { numRuns: 300 },
    );
  });

  it('given two attacks stacked between the same two seats of four, then their labels sit apart and clear of every seat box', () => {
    const seats = [0, 1, 2, 3].map((i) => seatPoint(i, 4));
    const [a, b] = placeLabels([{ from: seats[1]!, to: seats[3]! }, { from: seats[1]!, to: seats[3]! }], seats);
    expect(shared(a!, b!)).toBe(0);
    const seatBox = { w: 28, h: 29 };
    for (const l of [a!, b!])
      for (const s of seats) {
        const cover = Math.max(0, (LABEL_SIZE.w + seatBox.w) / 2 - Math.abs(l.x - s.x)) * Math.max(0, (LABEL_SIZE.h + seatBox.h) / 2 - Math.abs(l.y - s.y));
        expect(cover).toBe(0);
      }
  });
});
