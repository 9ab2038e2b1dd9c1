import { canonicalJson } from '../store/canonical-json.js';
import type { StateView } from '../game/views.js';

/** One change between two views: where (a readable path), the values before and after, and a sentence. */
export type DiffEntry = { path: string; before: unknown; after: unknown; text: string };

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Short readable form of a value: card names, speech text, numbers as they are. */
function show(x: unknown): string {
  if (x === undefined) return '∅';
  if (isObj(x)) {
    if (typeof x['name'] === 'string') return String(x['name']);
    if (isObj(x['card']) && typeof x['card']['name'] === 'string') return `${x['card']['name']}${typeof x['owner_player_id'] === 'string' ? ` (${x['owner_player_id']})` : ''}`;
    if (typeof x['text'] === 'string') return `“${x['text']}”`;
  }
  const s = canonicalJson(x);
  return s.length > 80 ? `${s.slice(0, 77)}…` : s;
}

/** Arrays of seats (anything with a unique `player_id`) are compared seat by seat, not index by index. */
function byPlayer(xs: unknown[]): Map<string, unknown> | null {
  const m = new Map<string, unknown>();
  for (const x of xs) {
    if (!isObj(x) || typeof x['player_id'] !== 'string' || m.has(x['player_id'])) return null;
    m.set(x['player_id'], x);
  }
  return m;
}

function walk(path: string, a: unknown, b: unknown, out: DiffEntry[]): void {
  if (a === b) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const ma = byPlayer(a);
    const mb = byPlayer(b);
    if (ma && mb && (a.length > 0 || b.length > 0)) {
      for (const id of new Set([...ma.keys(), ...mb.keys()])) walk(`${path}[${id}]`, ma.get(id), mb.get(id), out);
      return;
    }
    // Other lists (cards, speech, the stack) as multisets: what came, what went.
    const left = new Map<string, number>();
    for (const x of a) left.set(canonicalJson(x), (left.get(canonicalJson(x)) ?? 0) + 1);
    const added: unknown[] = [];
    for (const x of b) {
      const k = canonicalJson(x);
      const n = left.get(k) ?? 0;
      if (n > 0) left.set(k, n - 1);
      else added.push(x);
    }
    const removed = a.filter((x) => {
      const k = canonicalJson(x);
      const n = left.get(k) ?? 0;
      if (n <= 0) return false;
      left.set(k, n - 1);
      return true;
    });
    for (const x of removed) out.push({ path, before: x, after: undefined, text: `${path}: − ${show(x)}` });
    for (const x of added) out.push({ path, before: undefined, after: x, text: `${path}: + ${show(x)}` });
    if (!added.length && !removed.length && canonicalJson(a) !== canonicalJson(b)) out.push({ path, before: a, after: b, text: `${path}: reordered` });
    return;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) walk(path ? `${path}.${k}` : k, a[k], b[k], out);
    return;
  }
  if (a !== undefined && b !== undefined && canonicalJson(a) === canonicalJson(b)) return;
  out.push({ path, before: a, after: b, text: `${path}: ${show(a)} → ${show(b)}` });
}

/**
 * What changed from view `a` to view `b` (two seqs of one game, one viewer): seats compared by
 * id, lists as what came and went, everything else value by value. The raw engine state of an
 * admin view is left out (the world and private views already say it readably).
 *
 * @example diffViews(t.seekTo(100), t.seekTo(140)).map((d) => d.text) // ['world.players[plr_2].resolve: 12 → 9', …]
 */
export function diffViews(a: StateView, b: StateView): DiffEntry[] {
  const out: DiffEntry[] = [];
  walk('world', a.world, b.world, out);
  walk('private', a.private, b.private, out);
  return out;
}
