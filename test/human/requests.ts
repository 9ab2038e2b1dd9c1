import type { TurnPlanRequest } from '../../src/protocol/index.js';
import { awaiting, requestFor, type GameState } from '../../src/game/index.js';
import { playGame, type GameSpec } from '../support/played-game.js';

/** A real decision request with the state it was asked in (so the engine can judge an answer). */
export type Asked = { state: GameState; request: TurnPlanRequest };

/**
 * Every request of a seeded game (each awaited seat at each state), every `stride`-th one kept:
 * real requests of every window, from the same engine a served game asks with.
 */
export function requestsOf(spec: Partial<GameSpec> & { seed: number }, stride = 1): Asked[] {
  const game = playGame({ seats: 4, round_cap: 6, compact: false, driver: spec.seed, names: ['Ada', 'Bo', 'Cy', 'Di', 'Ed'], ...spec });
  const out: Asked[] = [];
  let n = 0;
  for (const state of game.states) {
    const next = awaiting(state);
    if (!next) continue;
    for (const seat of next.seats) if (n++ % stride === 0) out.push({ state, request: requestFor(state, seat) });
  }
  return out;
}
