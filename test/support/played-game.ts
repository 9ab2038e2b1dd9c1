import type { GameEvent } from '../../src/protocol/index.js';
import { initialState, stepInPlace, type GameState } from '../../src/game/index.js';
import { applyEvent } from '../../src/game/evolve.js';
import { drive, rand } from './drivers.js';

export type PlayedGame = {
  /** Every event of the game, in seq order (seq i at index i − 1). */
  events: GameEvent[];
  /** The engine state at seq i (index i), from the setup state (seq 0) to the end. */
  states: GameState[];
};

export type GameSpec = {
  seed: number;
  seats: number;
  round_cap: number;
  compact: boolean;
  driver: number;
  /** Display names by seat (default: the engine's "Seat N"). */
  names?: readonly string[];
};

/** Plays a whole game with the seeded legal driver and keeps the state after every event. */
export function playGame(g: GameSpec): PlayedGame {
  const seats = g.names ? g.names.slice(0, g.seats).map((display_name) => ({ display_name })) : g.seats;
  const config = { seats, rules: { round_cap: g.round_cap, windows: g.compact ? ('compact' as const) : ('full' as const) } };
  const state = initialState(config, g.seed);
  const events: GameEvent[] = [];
  const started = stepInPlace(state, { type: 'start' });
  if (!started.ok) throw new Error(started.rejection.code);
  events.push(...started.events);
  drive(state, { r: rand(g.driver), onStep: (_, r) => r.ok && events.push(...r.events) });
  const shadow = initialState(config, g.seed);
  const states: GameState[] = [structuredClone(shadow)];
  for (const e of events) {
    applyEvent(shadow, structuredClone(e));
    states.push(structuredClone(shadow));
  }
  return { events, states };
}
