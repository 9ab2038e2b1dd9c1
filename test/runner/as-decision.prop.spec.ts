import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asDecision } from '../../src/runner/decision-record.js';
import { canonicalJson } from '../../src/store/index.js';

/** U+0000 as U+FFFD in every key and string (jsonb cannot hold U+0000). */
const scrub = (v: unknown): unknown =>
  typeof v === 'string'
    ? v.replaceAll('\u0000', '\uFFFD')
    : Array.isArray(v)
      ? v.map(scrub)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replaceAll('\u0000', '\uFFFD'), scrub(x)]))
        : v;

/** Whether U+0000 is in any key or string of a value. */
const holdsNul = (v: unknown): boolean =>
  typeof v === 'string'
    ? v.includes('\u0000')
    : v !== null && typeof v === 'object' && Object.entries(v).some(([k, x]) => k.includes('\u0000') || holdsNul(x));

/** What asDecision is defined to give: the answer written canonically and read back, U+0000 scrubbed. */
const definition = (raw: unknown): unknown => {
  const text = JSON.stringify(raw);
  return text === undefined ? undefined : JSON.parse(canonicalJson(scrub(JSON.parse(text))));
};

describe('asDecision against its definition (JSON.parse of the canonical text)', () => {
  it('given any JSON answer, keys in any order, then the same value with the same key order at every depth', () => {
    const keys = fc.constantFrom('a', 'b', 'Z', '10', '9', 'é', '', 'kind', 'card_id', '__proto__', 'n\u0000', '\u0000z');
    const texts = fc.constantFrom('plain', 'a\u0000b', '\u0000', 'é\u0000\u0000');
    const answer = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), texts, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(keys, tie('value'), { maxKeys: 5 })),
    })).value;
    fc.assert(
      fc.property(answer, (raw) => {
        const got = asDecision(raw);
        // JSON.stringify follows key order, so equal text means equal values in equal order.
        expect(JSON.stringify(got)).toBe(JSON.stringify(definition(raw)));
        expect(canonicalJson(got)).toBe(canonicalJson(scrub(raw)));
        expect(holdsNul(got)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('given any value at all (holes, -0, NaN, undefined members, Dates, Maps, class instances, toJSON), then what the JSON round trip gives, or no answer where JSON refuses it', () => {
    class Point {
      constructor(readonly x: number) {}
    }
    // A hole in an array (JSON writes null for it).
    const holey: unknown[] = [1];
    holey[2] = 3;
    const odd = fc.constantFrom<unknown>(-0, NaN, Infinity, undefined, new Date(0), new Map([[1, 2]]), new Point(1), { toJSON: () => 'j' }, holey, Object.create(null) as object, () => 1);
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: 'small' }, fc.anything({ maxDepth: 2 }), odd, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), tie('v'), { maxKeys: 4 })),
    })).v;
    fc.assert(
      fc.property(value, (raw) => {
        let expected: unknown;
        try {
          expected = definition(raw);
        } catch {
          expected = undefined;
        }
        expect(JSON.stringify(asDecision(raw))).toBe(JSON.stringify(expected));
      }),
      { numRuns: 1000 },
    );
  });

  it('given a __proto__ key, a function, a cycle or nothing, then an own property, no answer, no answer, undefined', () => {
    const got = asDecision(JSON.parse('{"z":1,"__proto__":{"x":1}}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.keys(got)).toEqual(['__proto__', 'z']);
    expect(asDecision(() => 1)).toBeUndefined();
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(asDecision(cycle)).toBeUndefined();
    expect(asDecision(undefined)).toBeUndefined();
    // JSON has no -0: the engine sees 0, as re-simulation from the stored jsonb would.
    expect(Object.is((asDecision({ a: [-0] }) as { a: number[] }).a[0], 0)).toBe(true);
    expect(asDecision({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: 1 })).toEqual({ a: 1, b: { c: [{ e: 2, f: 1 }], d: 1 } });
  });
});
