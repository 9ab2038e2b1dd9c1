/**
 * Bounds on the shape of a JSON value an agent sent, checked before any recursive code (zod, the
 * deep merge, JSON.stringify, canonical JSON, hashing) touches it. V8's JSON.parse is iterative,
 * but almost everything after it recurses once per level: a 60 KB line of 30,000 nested `{"a":`
 * used to overflow the stack in the deep merge and take the process down. The scan here is
 * iterative and stops after `maxNodes` values, so it is bounded even for cyclic live objects
 * that in-process agents might hand over.
 */

/** Why a value was refused; the codes are protocol failure codes. */
export type JsonBoundsFailure = { code: 'protocol/too_deep' | 'protocol/too_large'; message: string };

export type JsonBounds = {
  /** Levels of nested objects/arrays; the value itself is level 1 when it is one. */
  maxDepth: number;
  /** Values of any kind (objects, arrays, scalars) counted over the whole value. */
  maxNodes: number;
};

/**
 * Deep enough for every answer the protocol defines (a decision sits ~4 levels into an event)
 * and for any sane memory; far below the ~10,000 levels where V8's recursive code runs out.
 */
export const MAX_JSON_DEPTH = 64;
/** About what a 1 MiB line (the line cap) can hold of small values. */
export const MAX_JSON_NODES = 250_000;

export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxDepth: MAX_JSON_DEPTH, maxNodes: MAX_JSON_NODES };

/**
 * Null when `value` fits the bounds, else a failure naming the limit. Iterative; touches at most
 * `maxNodes` values, so its cost is bounded whatever it is given.
 *
 * @example
 * checkJsonBounds(JSON.parse('[[[]]]'));  // null
 * checkJsonBounds(JSON.parse('['.repeat(100) + ']'.repeat(100)));
 * // { code: 'protocol/too_deep', message: 'nesting deeper than 64 levels' }
 */
export function checkJsonBounds(value: unknown, bounds: JsonBounds = DEFAULT_JSON_BOUNDS): JsonBoundsFailure | null {
  if (value === null || typeof value !== 'object') return null;
  // Parallel stacks of containers still to open and their depth: no per-value allocation.
  const stack: object[] = [value];
  const depths: number[] = [1];
  let nodes = 1;
  while (stack.length > 0) {
    const node = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > bounds.maxDepth) return tooDeep(bounds);
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    nodes += children.length;
    if (nodes > bounds.maxNodes) return tooLarge(bounds);
    for (const child of children) {
      if (child !== null && typeof child === 'object') {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return null;
}

const tooDeep = (b: JsonBounds): JsonBoundsFailure => ({ code: 'protocol/too_deep', message: `nesting deeper than ${b.maxDepth} levels` });
const tooLarge = (b: JsonBounds): JsonBoundsFailure => ({ code: 'protocol/too_large', message: `more than ${b.maxNodes} values` });

/** `code: message`, the way traces and errors name a refused value. */
export const describeBoundsFailure = (f: JsonBoundsFailure): string => `${f.code}: ${f.message}`;
