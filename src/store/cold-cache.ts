import type { StoreContext } from './context.js';

/**
 * What a store remembers of the cold segments it read, least recently used first out, per store:
 * - `text`: decoded segments' JSON text (parsed afresh per read, so no caller shares objects with
 *   another), only once it decoded and chained: a spectator paging an ended game or stateAt near a
 *   snapshot reads the same segment again and again;
 * - `sealed`: the row versions (game, first_seq, xmin) whose seal was checked against their bytes,
 *   so a read checks the seals of a game's other segments without hashing them again.
 * Both are keyed by the row's xmin, which any UPDATE or re-INSERT of the row changes: an altered
 * segment is never answered from memory, it is fetched and checked again.
 */
const LIMITS = { text: 64, sealed: 8192 } as const;
type Space = keyof typeof LIMITS;

const caches = new WeakMap<StoreContext, Record<Space, Map<string, string>>>();

function space(ctx: StoreContext, name: Space): Map<string, string> {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = { text: new Map(), sealed: new Map() }));
  return c[name];
}

/** The value remembered under `key`, now the most recently used. */
export function recall(ctx: StoreContext, name: Space, key: string): string | undefined {
  const m = space(ctx, name);
  const hit = m.get(key);
  if (hit === undefined) return undefined;
  m.delete(key);
  m.set(key, hit);
  return hit;
}

/** Remembers `value` under `key`, forgetting the least recently used past the space's limit. */
export function remember(ctx: StoreContext, name: Space, key: string, value: string): void {
  const m = space(ctx, name);
  m.delete(key);
  m.set(key, value);
  if (m.size > LIMITS[name]) m.delete(m.keys().next().value!);
}
