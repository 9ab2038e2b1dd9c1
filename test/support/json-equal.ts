/**
 * Structural equality for JSON-shaped data (plain objects, arrays, primitives), key order ignored.
 * A fast path for the fold checks, where node's isDeepStrictEqual cost most of the suite's CPU
 * (it checks prototypes, symbols and property descriptors on every node of large views). It only
 * answers true when both values serialise to the same canonical JSON; anything it does not model
 * (a Map, a class instance, an undefined property) answers false, so callers fall back to the
 * canonical-JSON comparison and never accept a difference.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return typeof a !== 'undefined';
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !plain(a) || !plain(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) if (!Object.hasOwn(rb, k) || !jsonEqual(ra[k], rb[k])) return false;
  return true;
}

function plain(o: object): boolean {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}
