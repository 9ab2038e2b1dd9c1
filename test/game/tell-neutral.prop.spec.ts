import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { stepInPlace } from '../../src/game/index.js';
import { clonePlain } from '../../src/game/clone.js';
import { applyEvent } from '../../src/game/evolve.js';
import { changedTells } from '../../src/game/public-moves.js';
import { TELL_NEUTRAL, tellsOf } from '../../src/game/tells.js';
import { drive, rand } from '../support/drivers.js';
import { randomGame, stateOf } from '../support/random-game.js';

/**
 * The engine skips recomputing tells after events of a TELL_NEUTRAL type and takes a step's tells
 * before lazily (context.ts). Folding each log with every seat's tell recomputed after every event
 * must give exactly the `tells` each event carries, and no neutral event may change a tell.
 */
describe('tells: the engine’s shortcut agrees with a full recomputation after every event', () => {
  it('given a random game (any seats, windows, rules version, illegal inputs), when folded event by event, then each event carries exactly the tells that changed and neutral events change none', () => {
    fc.assert(
      fc.property(randomGame, (g) => {
        const state = stateOf(g);
        const folded = clonePlain(state);
        const log: GameEvent[] = [];
        const started = stepInPlace(state, { type: 'start' });
        if (started.ok) log.push(...started.events);
        drive(state, { r: rand(g.driver), illegal: g.illegal, onStep: (_, r) => r.ok && log.push(...r.events) });
        let before = tellsOf(folded);
        for (const event of log) {
          applyEvent(folded, event);
          const after = tellsOf(folded);
          const changed = changedTells(before, after);
          if (TELL_NEUTRAL.has(event.type)) expect({ type: event.type, changed }).toEqual({ type: event.type, changed: null });
          expect({ seq: event.seq, tells: event.tells ?? null }).toEqual({ seq: event.seq, tells: changed });
          before = after;
        }
      }),
      { numRuns: 60 },
    );
  });
});
