import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_OUTPUT_BYTES,
  NdjsonSplitter,
  type LineResult,
} from '../../src/protocol/index.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function all(splitter: NdjsonSplitter, ...chunks: (string | Uint8Array)[]): LineResult[] {
  return [
    ...chunks.flatMap((c) => splitter.push(typeof c === 'string' ? bytes(c) : c)),
    ...splitter.end(),
  ];
}

const codes = (results: LineResult[]): string[] =>
  results.map((r) => (r.ok ? 'ok' : r.failure.code));

describe('NdjsonSplitter', () => {
  it('has the documented default limits', () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(1024 * 1024);
    expect(DEFAULT_MAX_OUTPUT_BYTES).toBe(8 * 1024 * 1024);
  });

  it('given whole lines, then each parses, in order', () => {
    expect(all(new NdjsonSplitter(), '{"a":1}\n{"b":2}\n')).toEqual([
      { ok: true, value: { a: 1 } },
      { ok: true, value: { b: 2 } },
    ]);
  });

  it('given a line split across chunks, then it comes out once it is complete', () => {
    const s = new NdjsonSplitter();
    expect(s.push(bytes('{"a":'))).toEqual([]);
    expect(s.push(bytes('1}'))).toEqual([]);
    expect(s.push(bytes('\n'))).toEqual([{ ok: true, value: { a: 1 } }]);
  });

  it('given a multi-byte character cut between chunks, then it decodes intact', () => {
    const line = bytes('{"m":"é€😀"}\n');
    const s = new NdjsonSplitter();
    const out = [
      ...s.push(line.subarray(0, 8)),
      ...s.push(line.subarray(8, 11)),
      ...s.push(line.subarray(11)),
    ];
    expect(out).toEqual([{ ok: true, value: { m: 'é€😀' } }]);
  });

  it('given CRLF, blank and whitespace-only lines, then the \\r is dropped and blanks are skipped', () => {
    expect(all(new NdjsonSplitter(), '{"a":1}\r\n\n   \n\t\r\n{"b":2}\n')).toEqual([
      { ok: true, value: { a: 1 } },
      { ok: true, value: { b: 2 } },
    ]);
  });

  it('given a final line without a newline, then end() parses it', () => {
    const s = new NdjsonSplitter();
    expect(s.push(bytes('{"a":1}\n{"b":2}'))).toEqual([{ ok: true, value: { a: 1 } }]);
    expect(s.end()).toEqual([{ ok: true, value: { b: 2 } }]);
    expect(s.end()).toEqual([]);
  });

  it('given a chunk the caller reuses, then the pending partial line is not corrupted', () => {
    const s = new NdjsonSplitter();
    const buf = bytes('{"a":"xy');
    s.push(buf);
    buf.fill(0x20);
    expect(s.push(bytes('z"}\n'))).toEqual([{ ok: true, value: { a: 'xyz' } }]);
  });

  it('given a bad line, then it fails with the line number and a preview, and nothing more comes out', () => {
    const s = new NdjsonSplitter();
    const out = s.push(bytes('{"a":1}\nnot json\n{"b":2}\n'));
    expect(codes(out)).toEqual(['ok', 'protocol/bad_json']);
    const failure = out[1];
    expect(failure?.ok === false && failure.failure.message).toMatch(
      /^line 2 is not JSON .*"not json"$/,
    );
    expect(s.push(bytes('{"c":3}\n'))).toEqual([]);
    expect(s.end()).toEqual([]);
    expect(s.finished).toBe(true);
  });

  it('given invalid UTF-8, then it fails as such', () => {
    const line = new Uint8Array([...bytes('{"m":"'), 0xff, 0xfe, ...bytes('"}\n')]);
    expect(codes(all(new NdjsonSplitter(), line))).toEqual(['protocol/invalid_utf8']);
  });

  it('given a truncated multi-byte character at end of stream, then it fails as invalid UTF-8', () => {
    const euro = bytes('€');
    expect(codes(all(new NdjsonSplitter(), bytes('{"m":"'), euro.subarray(0, 2)))).toEqual([
      'protocol/invalid_utf8',
    ]);
  });

  it('given a line of exactly maxLineBytes, then it passes; one byte more fails', () => {
    const line = `{"a":"${'x'.repeat(10)}"}`;
    expect(codes(all(new NdjsonSplitter({ maxLineBytes: line.length }), `${line}\n`))).toEqual([
      'ok',
    ]);
    expect(codes(all(new NdjsonSplitter({ maxLineBytes: line.length - 1 }), `${line}\n`))).toEqual([
      'protocol/line_too_long',
    ]);
  });

  it('given a partial line over the limit, then it fails at once, without waiting for a newline', () => {
    const s = new NdjsonSplitter({ maxLineBytes: 10 });
    expect(s.push(bytes('{"a":'))).toEqual([]);
    expect(codes(s.push(bytes('"0123456789')))).toEqual(['protocol/line_too_long']);
    expect(s.finished).toBe(true);
  });

  it('given output over maxOutputBytes, then lines under the cap still count and the rest is a failure', () => {
    const s = new NdjsonSplitter({ maxOutputBytes: 20 });
    // 8 + 8 bytes fit; the third line crosses 20.
    expect(codes(s.push(bytes('{"a":1}\n{"b":2}\n{"c":3}\n')))).toEqual([
      'ok',
      'ok',
      'protocol/output_too_large',
    ]);
    expect(s.push(bytes('{"d":4}\n'))).toEqual([]);
  });

  it('given exactly maxOutputBytes, then nothing fails', () => {
    expect(
      codes(all(new NdjsonSplitter({ maxOutputBytes: 16 }), '{"a":1}\n', '{"b":2}\n')),
    ).toEqual(['ok', 'ok']);
  });

  it('given JSON that is not an object, then the splitter still returns it (the collector judges it)', () => {
    expect(all(new NdjsonSplitter(), '[1,2]\n"s"\n3\nnull\n')).toEqual([
      { ok: true, value: [1, 2] },
      { ok: true, value: 's' },
      { ok: true, value: 3 },
      { ok: true, value: null },
    ]);
  });
});
