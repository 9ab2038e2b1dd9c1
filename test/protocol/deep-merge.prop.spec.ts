import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepMerge, isPlainObject, mergeInto, type JsonObject } from '../../src/protocol/index.js';

/** Few keys, so patches collide with targets; the prototype-ish ones included on purpose. */
const key = fc.constantFrom('a', 'b', 'c', 'd', '__proto__', 'constructor', 'prototype');
const scalar = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('x', 'y', ''),
  fc.boolean(),
);

/** Own data properties only, as JSON.parse makes them (plain assignment would eat `__proto__`). */
function objectOf(entries: [string, unknown][]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

const { obj: json } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.constant(null),
    fc.array(fc.oneof(scalar, fc.constant(null), tie('obj')), { maxLength: 3 }),
    tie('obj'),
  ),
  obj: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map(objectOf),
}));

/** Key-order-insensitive rendering, so merges built in different orders compare equal. */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (!isPlainObject(v)) return JSON.stringify(v);
  const fields = Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canon(v[k])}`);
  return `{${fields.join(',')}}`;
}

function withoutTopNulls(v: JsonObject): JsonObject {
  return objectOf(Object.entries(v).filter(([, x]) => x !== null));
}

/**
 * Composition of two patches, keeping nulls (they must still delete from the target) and merging
 * nested patch objects into each other rather than into a state.
 */
function compose(b: JsonObject, c: JsonObject): JsonObject {
  const entries = new Map<string, unknown>(Object.entries(b));
  for (const [k, cv] of Object.entries(c)) {
    const bv = entries.get(k);
    entries.set(k, isPlainObject(cv) && isPlainObject(bv) ? compose(bv, cv) : cv);
  }
  return objectOf([...entries]);
}

/**
 * The one shape for which no single patch can stand for "b then c": b puts a non-object (or null)
 * at a path where c then puts an object. After b, c's object lands on nothing and starts fresh;
 * as one patch, that object would merge into whatever object the target had there.
 */
function clashes(b: JsonObject, c: JsonObject): boolean {
  return Object.entries(c).some(([k, cv]) => {
    if (!isPlainObject(cv) || !Object.hasOwn(b, k)) return false;
    const bv = b[k];
    return isPlainObject(bv) ? clashes(bv, cv) : true;
  });
}

function hasNulls(v: unknown): boolean {
  return isPlainObject(v) && Object.values(v).some((x) => x === null || hasNulls(x));
}

function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

function references(v: unknown, into = new Set<object>()): Set<object> {
  if (v !== null && typeof v === 'object') {
    into.add(v);
    for (const x of Object.values(v)) references(x, into);
  }
  return into;
}

describe('deepMerge', () => {
  it('merges the seed 002 §11 worked example', () => {
    expect(deepMerge({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { c: 3, e: 4 }, d: [3] })).toEqual({
      a: { b: 1, c: 3, e: 4 },
      d: [3],
    });
  });

  it('given a patch object where the target has none, then it is stored as given, nulls included (the seed reference: recursion only where both hold objects)', () => {
    expect(deepMerge({ a: 1 }, { a: { b: null, c: 2 }, z: { y: null } })).toEqual({
      a: { b: null, c: 2 },
      z: { y: null },
    });
    expect(deepMerge({}, { decision: { card_id: null } })).toEqual({ decision: { card_id: null } });
  });

  it('given a nested null, then only that nested key goes', () => {
    expect(deepMerge({ a: { b: 1, c: 2 } }, { a: { b: null } })).toEqual({ a: { c: 2 } });
  });

  it('given __proto__ in a patch, then it is kept as plain data and no prototype changes', () => {
    const patch = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    ) as JsonObject;
    const out = deepMerge({}, patch);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(out)).toBe(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    expect((out as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('given an inherited name like "constructor" in a patch object, then it does not merge into Object', () => {
    expect(deepMerge({}, { constructor: { a: 1 } })).toEqual({ constructor: { a: 1 } });
  });

  it('given undefined in a patch (in-process agents), then the key is left alone, as JSON would drop it', () => {
    expect(deepMerge({ a: 1 }, { a: undefined, b: undefined })).toEqual({ a: 1 });
  });

  it('shows why plain associativity fails: a scalar then an object is not one patch', () => {
    const a = { k: { x: 1 } };
    const b = { k: 1 };
    const c = { k: { y: 2 } };
    expect(deepMerge(deepMerge(a, b), c)).toEqual({ k: { y: 2 } });
    expect(deepMerge(a, deepMerge(b, c))).toEqual({ k: { x: 1, y: 2 } });
  });

  it('shows why merging patches needs compose: a null in c must survive to delete from a', () => {
    expect(deepMerge(deepMerge({ k: 1 }, {}), { k: null })).toEqual({});
    expect(deepMerge({ k: 1 }, deepMerge({}, { k: null }))).toEqual({ k: 1 });
    expect(deepMerge({ k: 1 }, compose({}, { k: null }))).toEqual({});
  });
});

describe('deepMerge properties', () => {
  it('merging {} is the identity', () => {
    fc.assert(fc.property(json, (a) => canon(deepMerge(a, {})) === canon(a)));
  });

  it('merging into {} copies the patch without its top-level nulls', () => {
    fc.assert(fc.property(json, (p) => canon(deepMerge({}, p)) === canon(withoutTopNulls(p))));
  });

  it('result keys are the union of both minus the keys the patch sets to null', () => {
    fc.assert(
      fc.property(json, json, (a, p) => {
        const deleted = new Set(Object.keys(p).filter((k) => p[k] === null));
        const expected = [...new Set([...Object.keys(a), ...Object.keys(p)])]
          .filter((k) => !deleted.has(k))
          .sort();
        expect(Object.keys(deepMerge(a, p)).sort()).toEqual(expected);
      }),
    );
  });

  it('per key: null deletes, arrays and scalars replace, objects merge recursively, absent keys keep the target', () => {
    fc.assert(
      fc.property(json, json, (a, p) => {
        const out = deepMerge(a, p);
        for (const k of new Set([...Object.keys(a), ...Object.keys(p)])) {
          const pv = Object.hasOwn(p, k) ? p[k] : undefined;
          const av = Object.hasOwn(a, k) ? a[k] : undefined;
          let expected: unknown;
          if (pv === undefined) expected = av;
          else if (pv === null) expected = undefined;
          else if (isPlainObject(pv) && isPlainObject(av)) expected = deepMerge(av, pv);
          else expected = pv; // arrays replace entirely, their contents kept as data
          expect(Object.hasOwn(out, k)).toBe(expected !== undefined);
          expect(canon(Object.hasOwn(out, k) ? out[k] : undefined)).toBe(canon(expected));
        }
      }),
    );
  });

  it('is idempotent for patches without nested nulls: applying one twice changes nothing more', () => {
    fc.assert(
      fc.property(json, json, (a, p) => {
        // A nested null stored on the first pass (no object there yet) deletes on the second.
        fc.pre(!Object.values(p).some(hasNulls));
        return canon(deepMerge(deepMerge(a, p), p)) === canon(deepMerge(a, p));
      }),
    );
  });

  it('composes: merge(merge(a, b), c) = merge(a, compose(b, c)) whenever b does not put a non-object where c puts an object and c has no nested nulls', () => {
    fc.assert(
      fc.property(json, json, json, (a, b, c) => {
        fc.pre(!clashes(b, c) && !Object.values(c).some(hasNulls));
        expect(canon(deepMerge(deepMerge(a, b), c))).toBe(canon(deepMerge(a, compose(b, c))));
      }),
      { numRuns: 300 },
    );
  });

  it('is associative for null-free c without that clash: merge(merge(a, b), c) = merge(a, merge(b, c))', () => {
    fc.assert(
      fc.property(json, json, json, (a, b, c) => {
        fc.pre(!clashes(b, c) && !hasNulls(c));
        expect(canon(deepMerge(deepMerge(a, b), c))).toBe(canon(deepMerge(a, deepMerge(b, c))));
      }),
      { numRuns: 300 },
    );
  });

  it('never mutates its inputs (they may be deeply frozen)', () => {
    fc.assert(
      fc.property(json, json, (a, p) => {
        const before = [canon(a), canon(p)];
        deepMerge(deepFreeze(a), deepFreeze(p));
        expect([canon(a), canon(p)]).toEqual(before);
      }),
    );
  });

  it('shares no object or array with the patch, so mutating the result cannot reach it', () => {
    fc.assert(
      fc.property(json, json, (a, p) => {
        const fromPatch = references(p);
        for (const r of references(deepMerge(a, p))) expect(fromPatch.has(r)).toBe(false);
      }),
    );
  });
});

describe('mergeInto', () => {
  it('writes into the target: it and every object merged into keep their identity, so a patch costs its own size, not the state\'s', () => {
    const nested = { b: 1 };
    const state: JsonObject = { a: nested, keep: { c: 2 } };
    const keep = state['keep'];
    mergeInto(state, { a: { d: 3 }, e: 4 });
    expect(state).toEqual({ a: { b: 1, d: 3 }, keep: { c: 2 }, e: 4 });
    expect(state['a']).toBe(nested);
    expect(state['keep']).toBe(keep);
  });


  it('folding patches into one state in place gives what deepMerge gives, leaves the patches alone and shares nothing with them', () => {
    fc.assert(
      fc.property(fc.array(json, { maxLength: 5 }), (patches) => {
        const before = patches.map(canon);
        const state: JsonObject = {};
        for (const p of patches) mergeInto(state, p);
        expect(canon(state)).toBe(canon(patches.reduce((s: JsonObject, p) => deepMerge(s, p), {})));
        expect(patches.map(canon)).toEqual(before);
        const fromPatches = new Set(patches.flatMap((p) => [...references(p)]));
        for (const r of references(state)) expect(fromPatches.has(r)).toBe(false);
      }),
    );
  });
});
