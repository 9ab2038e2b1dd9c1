import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ISO_TIMESTAMP_PATTERN, isIsoTimestamp } from '../../src/protocol/index.js';

/** A stamp as runners make them, or one with a character changed (invalid dates, times, suffixes). */
const stamp = fc.oneof(
  fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }).map((d) => d.toISOString()),
  fc
    .tuple(fc.date({ min: new Date(Date.UTC(2000, 0, 1)), max: new Date(Date.UTC(2100, 0, 1)), noInvalidDate: true }), fc.nat(23), fc.constantFrom('9', '0', '3', 'Z', '.', 'x', '+', ':', '-', 'T'))
    .map(([d, i, c]) => {
      const s = d.toISOString();
      return s.slice(0, i) + c + s.slice(i + 1);
    }),
  fc.constantFrom('2026-02-29T10:00:00.000Z', '2024-02-29T10:00:00.000Z', '2026-01-01T10:00:00.000+01:00', '2026-01-01T24:00:00.000Z', ''),
);

/**
 * isIsoTimestamp skips the pattern for a stamp that differs from the last one that passed only in
 * its milliseconds. Over any sequence of stamps — runs of neighbours and broken ones mixed — it must
 * answer exactly as the pattern does.
 */
describe('isIsoTimestamp: the hot path’s shortcut answers as the pattern does', () => {
  it('given any sequence of stamps, some one millisecond apart and some broken, then each answer equals the pattern’s', () => {
    const neighbours = fc.tuple(stamp, fc.array(fc.nat(999), { maxLength: 5 })).map(([s, ms]) => [s, ...ms.map((m) => s.slice(0, 20) + String(m).padStart(3, '0') + s.slice(23))]);
    fc.assert(
      fc.property(fc.array(neighbours, { maxLength: 30 }), (runs) => {
        for (const s of runs.flat()) expect({ s, ok: isIsoTimestamp(s) }).toEqual({ s, ok: ISO_TIMESTAMP_PATTERN.test(s) });
      }),
      { numRuns: 300 },
    );
  });

  it('given a valid stamp, then the same second with a broken date or suffix is still refused', () => {
    expect(isIsoTimestamp('2026-01-01T10:00:00.000Z')).toBe(true);
    expect(isIsoTimestamp('2026-01-01T10:00:00.00xZ')).toBe(false);
    expect(isIsoTimestamp('2026-01-01T10:00:00.0001')).toBe(false);
    expect(isIsoTimestamp('2026-02-30T10:00:00.000Z')).toBe(false);
  });
});
