import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { awaiting, initialState, requestFor, stepInPlace } from '../../src/game/index.js';
import { cardRefOf, discardRefs } from '../../src/game/views-cards.js';
import { drive, rand } from '../support/drivers.js';
import { randomGame, stateOf } from '../support/random-game.js';

/**
 * Views hand out the discard pile's refs again while the pile is unchanged (views-cards.ts). After
 * every step of a random game — refused inputs and both window modes included — the pile a view
 * shows must equal one computed afresh.
 */
describe('views: the shared discard list equals a fresh one after every step', () => {
  it('given a random game, when each step is taken, then the discard a request shows equals one computed afresh', () => {
    fc.assert(
      fc.property(randomGame, (g) => {
        const state = stateOf(g);
        stepInPlace(state, { type: 'start' });
        let checked = 0;
        drive(state, {
          r: rand(g.driver),
          illegal: g.illegal,
          onStep: () => {
            const next = awaiting(state);
            if (next) {
              const r = requestFor(state, next.seats[0]!);
              expect(r.public_world_view.discard).toEqual(state.discard.map((c) => cardRefOf(state, c)));
              checked++;
            }
          },
        });
        expect(checked).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });

  it('given a discard pile handed out twice, when it is unchanged, then the same frozen list is shared, and a changed pile gets a new one', () => {
    const state = initialState({ seats: 4 }, 7);
    stepInPlace(state, { type: 'start' });
    drive(state, { r: rand(1), onStep: () => undefined });
    expect(state.discard.length).toBeGreaterThan(2);
    const first = discardRefs(state);
    expect(discardRefs(state)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Same length, one card swapped: a different pile.
    state.discard[1] = state.discard[0]!;
    expect(discardRefs(state)).not.toBe(first);
    expect(discardRefs(state)).toEqual(state.discard.map((c) => cardRefOf(state, c)));
  });
});
