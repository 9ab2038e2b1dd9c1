/**
 * Bounded NDJSON framing for tool stdout (seed 001 §2.2–2.3): split on the byte 0x0A, decode each
 * line as strict UTF-8, parse it as JSON. Works on bytes rather than strings so that a multi-byte
 * character cut between two chunks is never decoded half-way, and so that the limits count what
 * the tool actually wrote. Browser-safe: Uint8Array and TextDecoder only, no Buffer.
 */

/** Why a stream of lines broke; a subset of the runtime's failure codes. */
export type LineFailureCode =
  | 'protocol/bad_json'
  | 'protocol/line_too_long'
  | 'protocol/output_too_large'
  | 'protocol/invalid_utf8';

export type LineFailure = { code: LineFailureCode; message: string };

/** One complete line: its parsed JSON value, or why the stream broke there. */
export type LineResult = { ok: true; value: unknown } | { ok: false; failure: LineFailure };

export type NdjsonLimits = {
  /** Bytes in one line, not counting its `\n`. */
  maxLineBytes: number;
  /** Bytes in the whole stream. */
  maxOutputBytes: number;
};

export const DEFAULT_MAX_LINE_BYTES = 1024 * 1024;
export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

const NEWLINE = 0x0a;
const CR = 0x0d;
const PREVIEW_CHARS = 80;
const BLANK = /^\s*$/;

/**
 * Splits a byte stream into parsed JSON lines, holding at most one partial line (≤ maxLineBytes)
 * in memory. Empty and whitespace-only lines are skipped; a trailing `\r` is tolerated. After the
 * first failure it returns nothing more, so a caller can stop at the first `ok: false`.
 *
 * @example
 * const s = new NdjsonSplitter();
 * s.push(new TextEncoder().encode('{"a":1}\n{"b"')); // [{ ok: true, value: { a: 1 } }]
 * s.push(new TextEncoder().encode(':2}'));           // []
 * s.end();                                           // [{ ok: true, value: { b: 2 } }]
 */
export class NdjsonSplitter {
  private readonly limits: NdjsonLimits;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /**
   * The current unterminated line, copied (callers may reuse their chunks) into one buffer that
   * grows by doubling up to maxLineBytes: a tool dribbling one byte per write costs bytes, not
   * one object per chunk.
   */
  private pending = new Uint8Array(0);
  private pendingBytes = 0;
  private totalBytes = 0;
  private lineNo = 0;
  private closed = false;

  constructor(limits: Partial<NdjsonLimits> = {}) {
    this.limits = {
      maxLineBytes: limits.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      maxOutputBytes: limits.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    };
  }

  /** True once a failure was returned or end() was called: nothing more will come out. */
  get finished(): boolean {
    return this.closed;
  }

  /** Feeds the next chunk; returns the lines it completed, in order. */
  push(chunk: Uint8Array): LineResult[] {
    if (this.closed || chunk.length === 0) return [];
    const room = this.limits.maxOutputBytes - this.totalBytes;
    this.totalBytes += chunk.length;
    // Lines that fit under the cap still count; bytes past it are never looked at.
    const overflow = chunk.length > room;
    const out: LineResult[] = [];
    if (this.scan(overflow ? chunk.subarray(0, Math.max(0, room)) : chunk, out) && overflow) {
      this.fail(
        out,
        'protocol/output_too_large',
        `stdout exceeded ${this.limits.maxOutputBytes} bytes`,
      );
    }
    return out;
  }

  /** Flushes a final line that had no trailing newline. */
  end(): LineResult[] {
    if (this.closed) return [];
    const out: LineResult[] = [];
    if (this.pendingBytes > 0) this.line(this.takePending(null), out);
    this.release();
    return out;
  }

  /** Returns false once it failed. */
  private scan(chunk: Uint8Array, out: LineResult[]): boolean {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) break;
      const piece = chunk.subarray(start, nl);
      if (this.pendingBytes + piece.length > this.limits.maxLineBytes) return this.tooLong(out);
      if (!this.line(this.pendingBytes > 0 ? this.takePending(piece) : piece, out)) return false;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.length - start;
      // Fail on the partial line at once: a tool that never sends a newline must not grow the buffer.
      if (this.pendingBytes + rest > this.limits.maxLineBytes) return this.tooLong(out);
      this.append(chunk.subarray(start));
    }
    return true;
  }

  private append(bytes: Uint8Array): void {
    const need = this.pendingBytes + bytes.length;
    if (need > this.pending.length) {
      const doubled = Math.min(Math.max(this.pending.length * 2, 256), this.limits.maxLineBytes);
      const grown = new Uint8Array(Math.max(need, doubled));
      grown.set(this.pending.subarray(0, this.pendingBytes));
      this.pending = grown;
    }
    this.pending.set(bytes, this.pendingBytes);
    this.pendingBytes = need;
  }

  /** The pending line plus `tail`, as a view that is valid until the next append. */
  private takePending(tail: Uint8Array | null): Uint8Array {
    if (tail) this.append(tail);
    const line = this.pending.subarray(0, this.pendingBytes);
    this.pendingBytes = 0;
    return line;
  }

  /** Decodes and parses one line (without its `\n`); returns false once it failed. */
  private line(bytes: Uint8Array, out: LineResult[]): boolean {
    this.lineNo++;
    const end =
      bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    if (end === 0) return true;
    let text: string;
    try {
      text = this.decoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
    } catch {
      return this.fail(out, 'protocol/invalid_utf8', `line ${this.lineNo} is not valid UTF-8`);
    }
    try {
      out.push({ ok: true, value: JSON.parse(text) as unknown });
      return true;
    } catch (e) {
      if (BLANK.test(text)) return true;
      const why = e instanceof Error ? e.message : String(e);
      return this.fail(
        out,
        'protocol/bad_json',
        `line ${this.lineNo} is not JSON (${why}): ${preview(text)}`,
      );
    }
  }

  private tooLong(out: LineResult[]): false {
    return this.fail(
      out,
      'protocol/line_too_long',
      `line ${this.lineNo + 1} exceeds ${this.limits.maxLineBytes} bytes`,
    );
  }

  /** Nothing more will come out: drop the buffer. */
  private release(): void {
    this.closed = true;
    this.pending = new Uint8Array(0);
    this.pendingBytes = 0;
  }

  private fail(out: LineResult[], code: LineFailureCode, message: string): false {
    out.push({ ok: false, failure: { code, message } });
    this.release();
    return false;
  }
}

/**
 * `text` quoted as JSON, cut to `max` characters: how a message names something an agent sent
 * without copying a megabyte of it.
 *
 * @example
 * preview('x'.repeat(100), 3); // '"xxx…"'
 */
export function preview(text: string, max = PREVIEW_CHARS): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
