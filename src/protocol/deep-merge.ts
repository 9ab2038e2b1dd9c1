import type { JsonObject } from './tool-events.js';

/**
 * Seed 002 §11 state merge, as a pure function: nested objects merge recursively, arrays and
 * scalars replace, `null` deletes the key.
 *
 * As in the seed's reference algorithm, recursion happens only where both sides hold an object:
 * a patch object landing where the target has none is stored as given, nulls included. That is
 * what lets an agent send `{"decision": {"card_id": null}}` — its answers use null as a value
 * (no target, no emotional intent) — while `{"memory": {"grudge": null}}` still deletes a key of
 * a memory that exists. `undefined` values in a patch are skipped, as JSON.stringify would drop
 * them (in-process agents hand us live objects, not parsed JSON).
 *
 * `__proto__`, `constructor` and `prototype` are ordinary own data keys: they are read with
 * Object.hasOwn and written with Object.defineProperty, so a patch like
 * `{"__proto__": {"polluted": true}}` (which JSON.parse makes an own key) round-trips as data
 * and never changes any object's prototype.
 *
 * Neither argument is mutated. The result may share untouched sub-objects with `target` (treat
 * both as immutable) but never shares anything with `patch`: values taken from the patch are
 * copied, so mutating the result cannot reach back into it.
 *
 * @example
 * deepMerge({ a: { b: 1, c: 2 }, d: [1, 2] }, { a: { c: 3, e: 4 }, d: [3] });
 * // → { a: { b: 1, c: 3, e: 4 }, d: [3] }
 */
export function deepMerge(target: JsonObject, patch: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(target)) put(out, key, target[key]);
  for (const key of Object.keys(patch)) {
    const next = patch[key];
    if (next === undefined) continue;
    if (next === null) {
      delete out[key];
      continue;
    }
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    put(out, key, isPlainObject(next) && isPlainObject(prev) ? deepMerge(prev, next) : copy(next));
  }
  return out;
}

/** A non-null, non-array object made by JSON.parse or an object literal. */
export function isPlainObject(value: unknown): value is JsonObject {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Plain assignment would treat `__proto__` as the prototype setter. */
function put(obj: JsonObject, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  } else {
    obj[key] = value;
  }
}

/** Deep copy of a patch value so the result shares nothing with the patch; nulls inside it are data. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (isPlainObject(value)) {
    const out: JsonObject = {};
    for (const key of Object.keys(value)) put(out, key, copy(value[key]));
    return out;
  }
  return value;
}
