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
