import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonbText } from '../../src/store/jsonb-text.js';
import type { EventStore } from '../../src/store/index.js';
import { openPgliteStore, type TestStore } from './support.js';

// JSON values as agents send them (no U+0000, which jsonb refuses; no lone surrogates, which UTF-8 cannot carry).
const text = fc.string({ unit: 'grapheme' }).map((s) => s.replaceAll('\u0000', ''));
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(1e21, -1.5e-7, 123456789e30, 5e-324),
    text,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(text, tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('jsonbText: the text of value::jsonb without PostgreSQL', () => {
  let t: TestStore;
  let store: EventStore;
  beforeAll(async () => {
    t = await openPgliteStore();
    store = t.store;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('given any JSON value, then jsonbText equals what PostgreSQL prints for it as jsonb', async () => {
    await fc.assert(
      fc.asyncProperty(json, async (v) => {
        const [row] = await store.ctx.sql.rows<{ t: string }>('SELECT $1::jsonb::text AS t', [JSON.stringify(v)]);
        expect(jsonbText(v)).toBe(row!.t);
      }),
      { numRuns: 300 },
    );
  });
});
