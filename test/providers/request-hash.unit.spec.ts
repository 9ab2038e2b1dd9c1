import { describe, expect, it } from 'vitest';
import { canonicalJson, requestHash } from '../../src/providers/request-hash.js';
import { request } from './contract-fixtures.js';

describe('requestHash', () => {
  const req = request('gpt-4o');

  it('is a sha256 hex that ignores the deadline, signal and meta', () => {
    expect(requestHash(req)).toMatch(/^[0-9a-f]{64}$/);
    expect(
      requestHash({
        ...req,
        deadlineMs: 1,
        meta: { game_id: 'other' },
        signal: new AbortController().signal,
      }),
    ).toBe(requestHash(req));
  });

  it('ignores key order and changes with anything that decides the answer', () => {
    const reordered = {
      ...req,
      answer: {
        schema: req.answer.schema,
        description: req.answer.description,
        name: req.answer.name,
      },
    };
    expect(requestHash(reordered)).toBe(requestHash(req));
    for (const change of [
      { model: 'gpt-4.1' },
      { maxOutputTokens: 301 },
      { temperature: 0.3 },
      { messages: req.messages.slice(1) },
    ]) {
      expect(requestHash({ ...req, ...change })).not.toBe(requestHash(req));
    }
  });

  it('canonicalJson sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, undefined], c: 3 }, e: undefined })).toBe(
      '{"a":{"c":3,"d":[2,null]},"b":1}',
    );
  });
});
