import { describe, expect, it } from 'vitest';
import { jsonEqual } from './json-equal.js';

describe('jsonEqual (the fold checks’ fast path)', () => {
  it('given equal JSON data in any key order, then it is equal', () => {
    expect(jsonEqual({ a: [1, { b: 'x', c: null }], d: true }, { d: true, a: [1, { c: null, b: 'x' }] })).toBe(true);
  });

  it('given any difference in a value, a key, a length or a type, then it is not', () => {
    const base = { a: [1, { b: 'x' }] };
    for (const other of [{ a: [1, { b: 'y' }] }, { a: [1, { c: 'x' }] }, { a: [1, { b: 'x' }, 2] }, { a: { 0: 1, 1: { b: 'x' } } }, { a: [1, { b: 'x', e: 0 }] }, { a: ['1', { b: 'x' }] }]) {
      expect(jsonEqual(base, other)).toBe(false);
      expect(jsonEqual(other, base)).toBe(false);
    }
  });

  it('given what it does not model (a Map, an undefined property), then it answers not equal, for the canonical JSON to decide', () => {
    expect(jsonEqual(new Map([[1, 2]]), new Map())).toBe(false);
    expect(jsonEqual({ a: undefined }, { a: undefined })).toBe(false);
  });
});
