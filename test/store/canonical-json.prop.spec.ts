import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/store/index.js';

/** The plain definition the fast one must agree with: sort every key list, stringify the rest. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : reference(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const members = Object.keys(obj)
    .sort()
    .filter((k) => obj[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`);
  return `{${members.join(',')}}`;
}

describe('canonicalJson (fast path) against its plain definition', () => {
  it('given any JSON value (keys in any order, sorted or not, repeated key sets), then the same text, which parses back to the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const text = canonicalJson(v);
        expect(text).toBe(reference(v));
        expect(canonicalJson(JSON.parse(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('given objects whose keys are already in order, unordered, integer-like or unicode, then members come out sorted by UTF-16 code units', () => {
    const keys = fc.constantFrom('a', 'b', 'Z', '10', '9', 'é', '\u{1F600}', '', 'a\u0000', '__proto__');
    const obj = fc.dictionary(keys, fc.oneof(fc.integer(), fc.constant(undefined), fc.string()));
    fc.assert(
      fc.property(fc.array(obj, { maxLength: 4 }), (v) => {
        expect(canonicalJson(v)).toBe(reference(v));
      }),
      { numRuns: 300 },
    );
  });
});
