import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awaiting, fold, initialState, requestFor, reseedHidden, stepInPlace, viewEvent, type GameState, type Viewer } from '../../src/game/index.js';
import { clonePlain } from '../../src/game/clone.js';
import { drive, legalDecision, rand } from '../support/drivers.js';
import { futureLeaks, leaks } from '../support/leaks.js';

const game = fc.record({
  seed: fc.integer({ min: 100_000, max: 2 ** 31 - 1 }), // ≥ 6 digits, so a leaked seed is findable as text
  seats: fc.integer({ min: 2, max: 5 }),
  compact: fc.boolean(),
  driver: fc.integer(),
  /** How many decisions to play before the reseed (a fork point anywhere in the game). */
  steps: fc.integer({ min: 0, max: 120 }),
  secret: fc.maxSafeInteger(),
});

/** A started game played `steps` legal decisions on (or to just before its end), awaiting a decision. */
function gameAt(g: typeof game extends fc.Arbitrary<infer T> ? T : never): GameState {
  const state = initialState({ seats: g.seats, rules: { round_cap: 6, windows: g.compact ? 'compact' : 'full' } }, g.seed);
  const started = stepInPlace(state, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.code);
  const r = rand(g.driver);
  for (let i = 0; i < g.steps; i++) {
    const next = awaiting(state);
    if (!next) break;
    const seat = next.seats[r.int(next.seats.length)]!;
    const before = clonePlain(state);
    stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision: legalDecision(requestFor(state, seat), r) });
    // Stop short of the end: a fork point awaits a decision.
    if (state.status === 'done') return before;
  }
  return state;
}

/** The state with the deck's order and the PRNG set aside: what reseeding must leave exactly as it was. */
const seen = (s: GameState) => ({ ...s, deck: [...s.deck].sort(), rng: null, seq: null });

describe('reseedHidden: a fork reseeds only what no seat has seen', () => {
  it('given any running game and secret, then hands, arenas, stack, discard, plans and the card map stay as they were, the deck is the same cards, and the same secret gives the same bytes', () => {
    fc.assert(
      fc.property(game, (g) => {
        const before = gameAt(g);
        const [a, b] = [clonePlain(before), clonePlain(before)];
        const events = reseedHidden(a, g.secret);
        expect(events.map((e) => e.type)).toEqual(['hidden_reseeded']);
        expect(seen(a)).toEqual(seen(before));
        expect(a.seq).toBe(before.seq + 1);
        // Deterministic given the secret: another copy reseeded with it is the same, byte for byte.
        expect(JSON.stringify(reseedHidden(b, g.secret))).toBe(JSON.stringify(events));
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
        // The log says it all: folding the event gives the live state (evolve recomputes nothing).
        expect(JSON.stringify(fold(before, events))).toBe(JSON.stringify(a));
        // A new PRNG whatever the deck, and a game that plays on to its end.
        expect(a.rng).not.toEqual(before.rng);
        drive(a, { r: rand(g.driver + 1) });
        expect(a.status).toBe('done');
      }),
      { numRuns: 100 },
    );
  });

  it('given a reseed, then no seat, spectator, live researcher or broadcast sees its order or PRNG; admins do', () => {
    fc.assert(
      fc.property(game, (g) => {
        const state = gameAt(g);
        const [event] = reseedHidden(state, g.secret);
        const viewers: Viewer[] = [...state.players.map((p) => ({ role: 'seat' as const, player_id: p.player_id })), { role: 'spectator' }, { role: 'researcher' }];
        for (const viewer of viewers) {
          const view = viewEvent(event!, viewer);
          expect(leaks(view, { viewer: viewer.role === 'seat' ? viewer.player_id : null, state, revealedThrough: 0 })).toEqual([]);
          expect(view.payload).toEqual({ count: state.deck.length });
        }
        expect(futureLeaks(viewEvent(event!, { role: 'broadcast' }), state.seed)).toEqual([]);
        expect(viewEvent(event!, { role: 'admin' })).toMatchObject({ payload: { order: state.deck }, rng: state.rng });
      }),
      { numRuns: 100 },
    );
  });
});
