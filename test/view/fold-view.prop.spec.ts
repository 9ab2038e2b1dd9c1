import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { initialState, stepInPlace, viewEvent, viewState, type StateView, type Viewer } from '../../src/game/index.js';
import { applyEvent } from '../../src/game/evolve.js';
import { viewHash } from '../../src/server/spectate/state-hash.js';
import { canonicalJson, foldView, sha256Hex, stateHash } from '../../src/view/index.js';
import { drive, rand } from '../support/drivers.js';

const game = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  seats: fc.integer({ min: 2, max: 6 }),
  round_cap: fc.integer({ min: 2, max: 6 }),
  compact: fc.boolean(),
  driver: fc.integer(),
  /** Which viewer (modulo the number of perspectives of that game). */
  who: fc.nat(),
  /** Where the snapshot is, as a fraction of the game. */
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});

type Perspective = { name: string; viewer: Viewer; gameOver: boolean };

/** Every viewer of a game: spectators, researchers live and after the end, admins and each seat. */
function perspectives(seats: number): Perspective[] {
  return [
    { name: 'spectator', viewer: { role: 'spectator' }, gameOver: false },
    { name: 'researcher (live)', viewer: { role: 'researcher' }, gameOver: false },
    { name: 'researcher (after the end)', viewer: { role: 'researcher' }, gameOver: true },
    { name: 'admin', viewer: { role: 'admin' }, gameOver: false },
    ...Array.from({ length: seats }, (_, i) => ({ name: `plr_${i + 1}`, viewer: { role: 'seat' as const, player_id: `plr_${i + 1}` }, gameOver: false })),
  ];
}

/** Equal as the server hashes them (canonical JSON); deep equality first, as it is much cheaper. */
const same = (a: StateView, b: StateView) => isDeepStrictEqual(a, b) || canonicalJson(a) === canonicalJson(b);

/**
 * The shared view reducer against the server's projection: for whole random games (the seeded
 * legal driver) and every kind of viewer, from a snapshot at a random seq, folding the viewer's
 * projected events reproduces viewState at every later seq, and the state_hash the server would
 * send (checked at every 10th seq and at the end, through the browser's hash function).
 */
describe('foldView: folding projected events reproduces viewState and its state_hash', () => {
  it('given whole games, any viewer and any snapshot seq, then every later folded view equals viewState and hashes the same', async () => {
    const seen = new Set<string>();
    let compared = 0;
    const finals: { folded: StateView; expected: string }[] = [];
    fc.assert(
      fc.property(game, (g) => {
        const config = { seats: g.seats, rules: { round_cap: g.round_cap, windows: g.compact ? ('compact' as const) : ('full' as const) } };
        const live = initialState(config, g.seed);
        const events: GameEvent[] = [];
        const started = stepInPlace(live, { type: 'start' });
        if (!started.ok) throw new Error(started.rejection.code);
        events.push(...started.events);
        drive(live, { r: rand(g.driver), onStep: (_, r) => r.ok && events.push(...r.events) });

        const all = perspectives(g.seats);
        const p = all[g.who % all.length]!;
        seen.add(p.viewer.role === 'seat' ? 'seat' : p.name);
        // A seat has no view before the game deals it in (seq 0 is the undealt table).
        const first = p.viewer.role === 'seat' ? 1 : 0;
        const from = first + Math.floor(g.at * (events.length - first));
        const shadow = initialState(config, g.seed);
        // Snapshots are copies: an admin view holds the (live, changing) engine state itself.
        let view: StateView | null = from === 0 ? structuredClone(viewState(shadow, p.viewer, p.gameOver)) : null;
        for (const e of events) {
          applyEvent(shadow, structuredClone(e));
          if (e.seq < from) continue;
          const expected = viewState(shadow, p.viewer, p.gameOver);
          if (view === null) {
            view = structuredClone(expected);
            continue;
          }
          view = foldView(view, viewEvent(e, p.viewer, p.gameOver), p.viewer, p.gameOver);
          if (!same(view, expected)) {
            expect(JSON.parse(canonicalJson(view)), `${p.name}: seq ${e.seq} (${e.type}), snapshot at ${from}`).toEqual(JSON.parse(canonicalJson(expected)));
          }
          if (e.seq % 10 === 0) expect(sha256Hex(canonicalJson(view))).toBe(viewHash(expected));
          compared++;
        }
        finals.push({ folded: view!, expected: viewHash(viewState(shadow, p.viewer, p.gameOver)) });
      }),
      { numRuns: 200 },
    );
    for (const f of finals) expect(await stateHash(f.folded)).toBe(f.expected);
    expect([...seen].sort()).toEqual(['admin', 'researcher (after the end)', 'researcher (live)', 'seat', 'spectator']);
    expect(compared).toBeGreaterThan(5_000);
  });
});
