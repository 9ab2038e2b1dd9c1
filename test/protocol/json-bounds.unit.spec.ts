import { describe, expect, it } from 'vitest';
import { checkJsonBounds, deepMerge, MAX_JSON_DEPTH } from '../../src/protocol/index.js';

/** `{"a":{"a":…}}` (or `[[…]]`) `levels` deep, built iteratively. */
function nested(levels: number, kind: 'object' | 'array'): unknown {
  let v: unknown = kind === 'object' ? {} : [];
  for (let i = 1; i < levels; i++) v = kind === 'object' ? { a: v } : [v];
  return v;
}

describe('checkJsonBounds', () => {
  it('given values up to the depth bound, then they pass; one level more is protocol/too_deep naming the limit', () => {
    expect(checkJsonBounds(nested(MAX_JSON_DEPTH, 'object'))).toBeNull();
    expect(checkJsonBounds(nested(MAX_JSON_DEPTH, 'array'))).toBeNull();
    expect(checkJsonBounds(nested(MAX_JSON_DEPTH + 1, 'object'))).toEqual({ code: 'protocol/too_deep', message: `nesting deeper than ${MAX_JSON_DEPTH} levels` });
    expect(checkJsonBounds(nested(MAX_JSON_DEPTH + 1, 'array'))?.code).toBe('protocol/too_deep');
  });

  it('given 100,000 levels parsed from text, then it refuses them without overflowing the stack', () => {
    const n = 100_000;
    expect(checkJsonBounds(JSON.parse('['.repeat(n) + ']'.repeat(n)))?.code).toBe('protocol/too_deep');
    expect(checkJsonBounds(JSON.parse('{"a":'.repeat(n) + '0' + '}'.repeat(n)))?.code).toBe('protocol/too_deep');
  });

  it('given more values than the size bound (flat, or a shared sub-object counted each time it appears), then protocol/too_large', () => {
    expect(checkJsonBounds(new Array(11).fill(0), { maxDepth: 64, maxNodes: 10 })?.code).toBe('protocol/too_large');
    const leaf = [1, 2, 3];
    expect(checkJsonBounds({ a: leaf, b: leaf, c: leaf }, { maxDepth: 64, maxNodes: 10 })).toEqual({ code: 'protocol/too_large', message: 'more than 10 values' });
    expect(checkJsonBounds({ a: leaf, b: leaf }, { maxDepth: 64, maxNodes: 10 })).toBeNull();
  });

  it('given a cyclic live object (an in-process agent), then it stops at the depth bound instead of looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(checkJsonBounds(cyclic)?.code).toBe('protocol/too_deep');
  });

  it('given scalars, then nothing to bound', () => {
    for (const v of [null, 0, 'x', true, undefined]) expect(checkJsonBounds(v)).toBeNull();
  });
});

describe('deepMerge on deep values', () => {
  it('given a patch and a target 100,000 levels deep, then it merges without recursion and keeps the merge semantics', () => {
    const n = 100_000;
    const deep = JSON.parse('{"a":'.repeat(n) + '{"x":1}' + '}'.repeat(n)) as Record<string, unknown>;
    const patch = JSON.parse('{"a":'.repeat(n) + '{"y":2,"x":null}' + '}'.repeat(n)) as Record<string, unknown>;
    const merged = deepMerge(deep, patch);
    let cursor: unknown = merged;
    for (let i = 0; i < n; i++) cursor = (cursor as Record<string, unknown>)['a'];
    expect(cursor).toEqual({ y: 2 });
    // The copy shares nothing with the patch.
    let p: unknown = patch;
    for (let i = 0; i < n; i++) p = (p as Record<string, unknown>)['a'];
    expect(p).toEqual({ y: 2, x: null });
  });
});
