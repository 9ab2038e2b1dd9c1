import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NdjsonSplitter, type LineResult, type NdjsonLimits } from '../../src/protocol/index.js';

function run(stream: Uint8Array, cuts: number[], limits: Partial<NdjsonLimits> = {}): LineResult[] {
  const s = new NdjsonSplitter(limits);
  const out: LineResult[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out.push(...s.push(stream.subarray(at, cut)));
    at = cut;
  }
  out.push(...s.push(stream.subarray(at)), ...s.end());
  return out;
}

/** Lines mixing valid JSON (with multi-byte text), garbage, blanks and CRLF. */
const line = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((t) => JSON.stringify({ t })),
  fc.constantFrom('', '  ', '{"a":', 'nope', '{"é":"😀"}\r'),
);

const stream = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
  .map(([lines, trailingNewline]) =>
    new TextEncoder().encode(lines.join('\n') + (trailingNewline ? '\n' : '')),
  );

const withCuts = stream.chain((bytes) =>
  fc.tuple(fc.constant(bytes), fc.array(fc.nat({ max: bytes.length }), { maxLength: 20 })),
);

describe('NdjsonSplitter properties', () => {
  it('any chunking of a stream gives the same results as one chunk (chunk edges inside characters included)', () => {
    fc.assert(
      fc.property(withCuts, ([bytes, cuts]) => {
        expect(run(bytes, cuts)).toEqual(run(bytes, []));
      }),
      { numRuns: 300 },
    );
  });

  it('any chunking gives the same results under tight limits too', () => {
    fc.assert(
      fc.property(
        withCuts,
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 200 }),
        ([bytes, cuts], maxLineBytes, maxOutputBytes) => {
          const limits = { maxLineBytes, maxOutputBytes };
          expect(run(bytes, cuts, limits)).toEqual(run(bytes, [], limits));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the output is valid lines then at most one failure, which is last', () => {
    fc.assert(
      fc.property(withCuts, ([bytes, cuts]) => {
        const out = run(bytes, cuts, { maxLineBytes: 30 });
        const firstFailure = out.findIndex((r) => !r.ok);
        expect(firstFailure === -1 || firstFailure === out.length - 1).toBe(true);
      }),
    );
  });
});
