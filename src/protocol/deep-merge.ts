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
  const root = shallowCopy(target);
  mergeLoop(root, patch, shallowCopy);
  return root;
}

/**
 * deepMerge that writes into `target` instead of copying it: the cost is the patch's size alone,
 * where deepMerge also copies every key of each object it merges into. For an owner of a state
 * that nothing else holds (the runtime's collector), since an agent's thousands of one-key patches
 * made deepMerge quadratic — tens of seconds of blocked event loop for under a megabyte of output.
 * Values are still copied from the patch, so the target never shares anything with it.
 *
 * @example
 * const state = {};
 * mergeInto(state, { a: { b: 1 } });
 * mergeInto(state, { a: { c: 2 } }); // state is { a: { b: 1, c: 2 } }
 */
export function mergeInto(target: JsonObject, patch: JsonObject): void {
  mergeLoop(target, patch, (inPlace) => inPlace);
}

/**
 * The merge itself, iterative (a work list of objects still to merge), so no patch depth can
 * overflow the stack. `own` gives the object to write into where both sides hold an object: a
 * copy for the pure merge, the object itself in place.
 */
function mergeLoop(root: JsonObject, patch: JsonObject, own: (prev: JsonObject) => JsonObject): void {
  const work: Array<{ out: JsonObject; patch: JsonObject }> = [{ out: root, patch }];
  for (let job = work.pop(); job; job = work.pop()) {
    const { out } = job;
    for (const key of Object.keys(job.patch)) {
      const next = job.patch[key];
      if (next === undefined) continue;
      if (next === null) {
        delete out[key];
        continue;
      }
      const prev = Object.hasOwn(out, key) ? out[key] : undefined;
      if (isPlainObject(next) && isPlainObject(prev)) {
        const merged = own(prev);
        put(out, key, merged);
        work.push({ out: merged, patch: next });
      } else put(out, key, copy(next));
    }
  }
}

/** A new object with the same own keys and values. */
function shallowCopy(obj: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const key of Object.keys(obj)) put(out, key, obj[key]);
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

/** Deep copy of a patch value so the result shares nothing with the patch; nulls inside it are data. Iterative. */
function copy(value: unknown): unknown {
  const root = shell(value);
  if (root === value) return value;
  const work: Array<[source: unknown, dest: unknown]> = [[value, root]];
  for (let job = work.pop(); job; job = work.pop()) {
    const [source, dest] = job;
    if (Array.isArray(source)) {
      const out = dest as unknown[];
      for (let i = 0; i < source.length; i++) out[i] = child(source[i] as unknown, work);
    } else {
      const from = source as JsonObject;
      for (const key of Object.keys(from)) put(dest as JsonObject, key, child(from[key], work));
    }
  }
  return root;
}

/** An empty array or object to copy `value` into, or `value` itself when it is not copied. */
function shell(value: unknown): unknown {
  if (Array.isArray(value)) return new Array<unknown>(value.length);
  if (isPlainObject(value)) return {};
  return value;
}

function child(value: unknown, work: Array<[unknown, unknown]>): unknown {
  const dest = shell(value);
  if (dest !== value) work.push([value, dest]);
  return dest;
}
