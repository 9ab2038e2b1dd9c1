import { describe, expect, it } from 'vitest';
import { extractJson } from '../../src/providers/json-extract.js';

const ok = (value: unknown) => ({ ok: true, value });

describe('extractJson', () => {
  it('takes the whole text when it is JSON', () => {
    expect(extractJson('  {"a": 1}\n')).toEqual(ok({ a: 1 }));
    expect(extractJson('[1, 2]')).toEqual(ok([1, 2]));
  });

  it('finds an object in prose', () => {
    expect(
      extractJson('Sure! My move:\n{"move": "attack", "target": "plr_2"}\nHope that works.'),
    ).toEqual(ok({ move: 'attack', target: 'plr_2' }));
  });

  it('prefers a ```json fence, and takes a bare ``` fence too', () => {
    expect(extractJson('Option {A} is bad.\n```json\n{"pick": "B"}\n```')).toEqual(
      ok({ pick: 'B' }),
    );
    expect(extractJson('```\n{"pick": "C"}\n```')).toEqual(ok({ pick: 'C' }));
  });

  it('skips a fence that does not parse and falls back to brace matching', () => {
    expect(extractJson('```python\nprint(1)\n```\nanswer: {"x": 2}')).toEqual(ok({ x: 2 }));
  });

  it('ignores braces and quotes inside strings', () => {
    const text = 'Reply: {"say": "watch my {left} hand \\"}\\" and {", "n": {"deep": true}} done';
    expect(extractJson(text)).toEqual(
      ok({ say: 'watch my {left} hand "}" and {', n: { deep: true } }),
    );
  });

  it('moves past a brace pair in prose that is not JSON', () => {
    expect(extractJson('I use {curly} notes. {"a": [1, {"b": 2}]}')).toEqual(
      ok({ a: [1, { b: 2 }] }),
    );
  });

  it('reports truncated JSON, never an inner object of it', () => {
    expect(extractJson('{"move": "attack", "plan": {"step": 1}, "why": "beca')).toEqual({
      ok: false,
      reason: 'truncated JSON: an object opens but never closes',
    });
    expect(extractJson('```json\n{"move": "att')).toEqual({
      ok: false,
      reason: 'truncated JSON: an object opens but never closes',
    });
  });

  it('reports a balanced object that is not JSON', () => {
    const r = extractJson("{move: 'attack'}");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^no valid JSON object: /);
  });

  it('reports text with no object, and empty text', () => {
    expect(extractJson('I attack plr_2.')).toEqual({
      ok: false,
      reason: 'no JSON object in the reply',
    });
    expect(extractJson('  \n ')).toEqual({ ok: false, reason: 'empty reply' });
  });

  it('gives up on brace-heavy junk after a bounded number of attempts', () => {
    // A megabyte of '{': the scan is bounded (MAX_OBJECT_STARTS tries, each linear), so this ends
    // in milliseconds; an unbounded quadratic scan would run for hours and hit the test's timeout.
    const junk = '{'.repeat(1_000_000) + 'x';
    expect(extractJson(junk).ok).toBe(false);
  });
});
