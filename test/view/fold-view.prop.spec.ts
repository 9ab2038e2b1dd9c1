import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { initialState, stepInPlace, type StateView } from '../../src/game/index.js';
import { stateHash } from '../../src/view/index.js';
import { drive, rand } from '../support/drivers.js';
import { foldAlong, perspectives } from '../support/fold-check.js';

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
        const r = foldAlong(config, g.seed, events, p, g.at);
        compared += r.compared;
        finals.push({ folded: r.folded, expected: r.expected });
      }),
      { numRuns: 200 },
    );
    for (const f of finals) expect(await stateHash(f.folded)).toBe(f.expected);
    expect([...seen].sort()).toEqual(['admin', 'broadcast', 'researcher (after the end)', 'researcher (live)', 'seat', 'spectator']);
    expect(compared).toBeGreaterThan(5_000);
  });
});
