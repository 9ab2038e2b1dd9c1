/**
 * U+0000 and jsonb. JSON can say it (`\u0000`) but PostgreSQL's jsonb cannot hold it and refuses
 * the whole statement. JSON.stringify writes U+0000 only as that escape, so JSON text without the
 * six characters `\u0000` holds none and costs nothing more to check; text with them (rare: it may
 * also be a literal backslash) is looked at exactly.
 */

/** U+0000, which PostgreSQL's jsonb cannot hold. */
export const NUL = '\u0000';

/** A string with U+0000 as U+FFFD (the replacement character). */
export const withoutNul = (s: string): string => (s.includes(NUL) ? s.replaceAll(NUL, '\uFFFD') : s);

/** A JSON value (as JSON.parse gives it) with U+0000 as U+FFFD in every key and string. */
function scrub(value: unknown): unknown {
  if (typeof value === 'string') return withoutNul(value);
  if (Array.isArray(value)) return value.map(scrub);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), scrub(v)]));
  return value;
}

/** Whether JSON text holds U+0000 in a key or a string. */
export function holdsNul(json: string): boolean {
  return json.includes('\\u0000') && JSON.stringify(scrub(JSON.parse(json))) !== json;
}

/**
 * JSON text jsonb can hold: `json` itself, or, when it holds U+0000, the same value with U+FFFD
 * in its place. For what is kept for reading only (an agent's traces): what feeds the engine is
 * scrubbed before the engine sees it (asDecision), so that the store holds what was played.
 */
export function jsonbSafe(json: string): string {
  return json.includes('\\u0000') ? JSON.stringify(scrub(JSON.parse(json))) : json;
}

/**
 * A number as PostgreSQL's numeric prints it: JSON.stringify's exponent forms (1e+21, 1.5e-7)
 * written out in full, every other number as JSON.stringify writes it.
 */
function numericText(n: number): string {
  const s = JSON.stringify(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', exp] = m;
  const digits = lead! + frac;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** Keys in jsonb's order: shorter first (in UTF-8 bytes), then bytewise. */
function byJsonbKey(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length - y.length || Buffer.compare(x, y);
}

/**
 * The text PostgreSQL gives back for `value::jsonb` (what `raw::text` reads from `actions`): keys
 * sorted as jsonb keeps them, `", "` and `": "` between items, numbers as numeric prints them. So a
 * row that never went through jsonb (a whole game stored cold at once) reads as if it had.
 * Strings are escaped as JSON.stringify does, which is jsonb's escaping for well-formed text.
 *
 * @example jsonbText({ bb: [1, 2], a: null }) // '{"a": null, "bb": [1, 2]}'
 */
export function jsonbText(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return numericText(value);
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return '[' + value.map((v) => jsonbText(v === undefined ? null : v)).join(', ') + ']';
  if (typeof value === 'object') {
    const keys = Object.keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined).sort(byJsonbKey);
    return '{' + keys.map((k) => JSON.stringify(k) + ': ' + jsonbText((value as Record<string, unknown>)[k])).join(', ') + '}';
  }
  throw new TypeError(`not a JSON value: ${typeof value}`);
}
