import { expect } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { initialState, viewEvent, viewState, type GameConfigInput, type StateView, type Viewer } from '../../src/game/index.js';
import { applyEvent } from '../../src/game/evolve.js';
import { viewHash } from '../../src/server/spectate/state-hash.js';
import { canonicalJson, foldView, sha256Hex } from '../../src/view/index.js';
import { jsonEqual } from './json-equal.js';

export type Perspective = { name: string; viewer: Viewer; gameOver: boolean };

/** Every viewer of a game: spectators, researchers live and after the end, the broadcast audience, admins and each seat. */
export function perspectives(seats: number): Perspective[] {
  return [
    { name: 'spectator', viewer: { role: 'spectator' }, gameOver: false },
    { name: 'researcher (live)', viewer: { role: 'researcher' }, gameOver: false },
    { name: 'researcher (after the end)', viewer: { role: 'researcher' }, gameOver: true },
    { name: 'broadcast', viewer: { role: 'broadcast' }, gameOver: false },
    { name: 'admin', viewer: { role: 'admin' }, gameOver: false },
    ...Array.from({ length: seats }, (_, i) => ({ name: `plr_${i + 1}`, viewer: { role: 'seat' as const, player_id: `plr_${i + 1}` }, gameOver: false })),
  ];
}

/** Equal as the server hashes them (canonical JSON); structural equality first, as it is much cheaper. */
const same = (a: StateView, b: StateView) => jsonEqual(a, b) || canonicalJson(a) === canonicalJson(b);

/**
 * Replays a game's log beside the viewer's fold from a snapshot at `at` (a fraction of the game;
 * seq 0 is the undealt table) and asserts the folded view equals viewState at
 * every later seq, and hashes the same at every `hashEvery`th seq. Returns the final folded view,
 * its expected hash, and how many seqs were compared.
 */
export function foldAlong(config: GameConfigInput, seed: number, events: readonly GameEvent[], p: Perspective, at: number, hashEvery = 10): { folded: StateView; expected: string; compared: number } {
  // Seq 0 is the undealt table: a seat's view of it holds no private view (game_started deals it in).
  const from = Math.floor(at * events.length);
  const shadow = initialState(config, seed);
  // Snapshots are copies: an admin view holds the (live, changing) engine state itself.
  let view: StateView | null = from === 0 ? structuredClone(viewState(shadow, p.viewer, p.gameOver)) : null;
  let compared = 0;
  for (const e of events) {
    applyEvent(shadow, structuredClone(e));
    if (e.seq < from) continue;
    const expected = viewState(shadow, p.viewer, p.gameOver);
    if (view === null) {
      view = structuredClone(expected);
      continue;
    }
    let next: StateView;
    try {
      next = foldView(view, viewEvent(e, p.viewer, p.gameOver), p.viewer, p.gameOver);
    } catch (err) {
      throw new Error(`${p.name}: seq ${e.seq} (${e.type}), snapshot at ${from}: ${(err as Error).message}`);
    }
    view = next;
    if (!same(view, expected)) {
      expect(JSON.parse(canonicalJson(view)), `${p.name}: seq ${e.seq} (${e.type}), snapshot at ${from}`).toEqual(JSON.parse(canonicalJson(expected)));
    }
    if (e.seq % hashEvery === 0) expect(sha256Hex(canonicalJson(view))).toBe(viewHash(expected));
    compared++;
  }
  return { folded: view!, expected: viewHash(viewState(shadow, p.viewer, p.gameOver)), compared };
}
