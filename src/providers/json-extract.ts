import { checkJsonBounds, describeBoundsFailure } from '../protocol/json-bounds.js';

/** A JSON answer found in model text, or why none was. */
export type Extracted = { ok: true; value: unknown } | { ok: false; reason: string };

/** Each '{' is one candidate; bounding them keeps a brace-heavy reply from costing quadratic time. */
const MAX_OBJECT_STARTS = 32;

const FENCE = /```[ \t]*(?:json[c5]?)?[ \t]*\r?\n?([\s\S]*?)```/gi;

/**
 * Finds the JSON answer in a model's reply, as tolerantly as models need: the whole text; else the
 * first fenced block (```json or bare ```) that parses; else the first balanced {...} that parses,
 * matched brace by brace with string literals (and their escapes) skipped, so prose before or after
 * the object and braces inside its strings do not confuse it. Never throws.
 *
 * @example
 * extractJson('Sure! Here it is:\n{"say": "a {tricky} one"}\nGood luck.');
 * // { ok: true, value: { say: 'a {tricky} one' } }
 * extractJson('{"say": "cut off');
 * // { ok: false, reason: 'truncated JSON: an object opens but never closes' }
 */
export function extractJson(text: string): Extracted {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty reply' };
  const whole = tryParse(trimmed);
  if (whole.ok) return whole;
  for (const fence of trimmed.matchAll(FENCE)) {
    const inner = tryParse((fence[1] ?? '').trim());
    if (inner.ok) return inner;
  }
  return firstObject(trimmed);
}

/**
 * Objects nested inside a candidate are never candidates themselves: a truncated or broken answer
 * must not pass off one of its inner objects as the answer.
 */
function firstObject(text: string): Extracted {
  let lastError: string | null = null;
  let start = text.indexOf('{');
  for (let tries = 0; start !== -1 && tries < MAX_OBJECT_STARTS; tries++) {
    const end = closingBrace(text, start);
    if (end === -1)
      return { ok: false, reason: 'truncated JSON: an object opens but never closes' };
    const candidate = tryParse(text.slice(start, end + 1));
    if (candidate.ok) return candidate;
    lastError = candidate.reason;
    start = text.indexOf('{', end + 1);
  }
  return {
    ok: false,
    reason:
      lastError === null ? 'no JSON object in the reply' : `no valid JSON object: ${lastError}`,
  };
}

/** Index of the '}' closing the '{' at `open`, or -1; braces inside string literals do not count. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}

function tryParse(text: string): Extracted {
  try {
    const value = JSON.parse(text) as unknown;
    // Bounded before the answer reaches zod, the memory merge or any other recursive reader.
    const bounds = checkJsonBounds(value);
    return bounds ? { ok: false, reason: describeBoundsFailure(bounds) } : { ok: true, value };
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${withLineCol(err instanceof Error ? err.message : String(err), text)}` };
  }
}

/** V8 (Node 20) says "at position N"; people read line:col. Later V8s add "(line L column C)" themselves. */
function withLineCol(message: string, text: string): string {
  if (/line \d+ column \d+/.test(message)) return message;
  const at = /at position (\d+)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const col = before.length - before.lastIndexOf('\n');
  return message.replace(/at position \d+/, `at ${line}:${col}`);
}
