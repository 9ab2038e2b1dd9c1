import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionResult } from '../../src/research/position-eval.js';
import { positionsReport } from '../../src/research/position-report.js';
import { wilson } from '../../src/research/position-stats.js';

describe('wilson', () => {
  it('is a proper interval around the observed share, inside [0, 1]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (n, share) => {
        const k = Math.round(share * n);
        const w = wilson(k, n)!;
        expect(w.low).toBeGreaterThanOrEqual(0);
        expect(w.high).toBeLessThanOrEqual(1);
        expect(w.low).toBeLessThanOrEqual(w.value);
        expect(w.value).toBeLessThanOrEqual(w.high);
        // Not degenerate at the ends: all-or-nothing still leaves room on the open side.
        if (k === n) expect(w.low).toBeLessThan(1);
        if (k === 0) expect(w.high).toBeGreaterThan(0);
      }),
    );
  });

  it('narrows as n grows at the same share, and matches a textbook value', () => {
    const widths = [10, 100, 1000].map((n) => wilson(n / 2, n)!).map((w) => w.high - w.low);
    expect(widths[0]!).toBeGreaterThan(widths[1]!);
    expect(widths[1]!).toBeGreaterThan(widths[2]!);
    // 8 of 10: 0.4902 to 0.9433 (Wilson 1927; Newcombe 1998, table I).
    expect(wilson(8, 10)).toEqual({ value: 0.8, low: expect.closeTo(0.4902, 4) as number, high: expect.closeTo(0.9433, 4) as number });
    expect(wilson(0, 0)).toBeNull();
  });
});

const result = fc.record({
  answered: fc.boolean(),
  legal: fc.boolean(),
  agrees: fc.boolean(),
  regret: fc.integer({ min: 0, max: 800 }).map((x) => x / 8),
  problem: fc.constantFrom(null, 'action/invalid', 'skill/timeout'),
}).map((r): PositionResult => {
  const legal = r.answered && r.legal;
  return { position_id: 'game_x:1', answered: r.answered, legal, key: legal ? 'pass' : null, problem: legal ? null : (r.problem ?? 'action/invalid'), regret: r.regret, move_regret: r.regret, agrees: legal && r.agrees };
});

describe('positionsReport', () => {
  it('counts and shares add up, the regret interval holds the mean, and the same results give the same report', () => {
    fc.assert(
      fc.property(fc.array(result, { minLength: 1, maxLength: 300 }), (results) => {
        const r = positionsReport('balanced', 'bank.jsonl', results);
        expect(r.answered + r.failed).toBe(results.length);
        expect(r.illegal).toBe(results.filter((x) => x.answered && !x.legal).length);
        expect(r.legality!.value).toBeCloseTo(results.filter((x) => x.legal).length / results.length, 6);
        expect(r.agreement!.value).toBeCloseTo(results.filter((x) => x.agrees).length / results.length, 6);
        const mean = results.reduce((a, x) => a + x.regret, 0) / results.length;
        expect(r.mean_regret!.value).toBeCloseTo(mean, 5);
        expect(r.mean_regret!.low).toBeLessThanOrEqual(r.mean_regret!.value);
        expect(r.mean_regret!.high).toBeGreaterThanOrEqual(r.mean_regret!.value);
        expect(r.problems.reduce((a, p) => a + p.count, 0)).toBe(results.filter((x) => x.problem).length);
        expect(positionsReport('balanced', 'bank.jsonl', results)).toEqual(r);
      }),
      { numRuns: 50 },
    );
  });
});
