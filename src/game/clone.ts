/**
 * A deep copy of JSON-shaped data: plain objects, arrays, primitives and `undefined` — what engine
 * states and events are. About 6× faster than structuredClone, which walks each value as an
 * arbitrary object (an admin's fold copies a whole engine state per event: 1.0 ms → 0.15 ms for a
 * six-seat state). Keys keep their order; anything else (a Map, a Date, a class instance) is a
 * caller's bug, so it throws rather than copy it wrong.
 *
 * @example const copy = clonePlain({ a: [1, { b: 2 }] }); // a fresh { a: [1, { b: 2 }] }
 */
export function clonePlain<T>(value: T): T {
  return copy(value) as T;
}

function copy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i]);
    return out;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new TypeError(`clonePlain: not plain data (${Object.prototype.toString.call(value)})`);
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const k of Object.keys(src)) {
    // An own "__proto__" key (agents choose some keys) must stay a key, not become the prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: copy(src[k]), enumerable: true, writable: true, configurable: true });
    else out[k] = copy(src[k]);
  }
  return out;
}

/**
 * A private copy of an engine state for a search or a fold to play on: everything copied as
 * clonePlain does, except the rules and the card map, which never change after the deal and are
 * shared. Keys keep their order (the engine's code then sees one shape of state). For the expert's
 * rollouts this replaced structuredClone: a copy per candidate per world, ~6 % of its search.
 *
 * @example const s = cloneState(world); stepInPlace(s, input); // world is untouched
 */
export function cloneState<T extends { rules: unknown; cards: unknown }>(state: T): T {
  const out: Record<string, unknown> = {};
  const src = state as unknown as Record<string, unknown>;
  for (const k of Object.keys(src)) out[k] = k === 'rules' || k === 'cards' ? src[k] : copy(src[k]);
  return out as T;
}
