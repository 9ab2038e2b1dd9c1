import type { Phase } from '../../protocol/index.js';
import { aliveInInitiative } from '../players.js';
import type { GameState, PlayerId, WindowState } from '../state.js';

const fresh = (window: WindowState['window'], queue: PlayerId[], sequential: boolean): WindowState => ({
  window,
  queue,
  sequential,
  taken: 0,
  rejections: 0,
  last_rejection: null,
  reacting_to: null,
});

/**
 * The decision window a phase opens, as a function of the state when the phase begins. Intent and
 * reflect ask every alive seat at once; talk and action go round the table in initiative order.
 */
export function windowFor(state: GameState, phase: Phase): WindowState | null {
  const seats = aliveInInitiative(state);
  const compact = state.rules.windows === 'compact';
  switch (phase) {
    case 'intent':
      return compact ? null : fresh('intent', seats, false);
    case 'talk':
      return compact ? null : fresh('talk', seats, true);
    case 'action':
      return fresh('action', seats, true);
    case 'reflect':
      return state.rules.reflect_window ? fresh('reflect', seats, false) : null;
    default:
      return null;
  }
}

export const reactionWindow = (target: PlayerId, actionId: string): WindowState => ({
  ...fresh('reaction', [target], true),
  reacting_to: actionId,
});

/** Removes a seat from the queue and resets the per-decision counters. */
export function finishSeat(w: WindowState, id: PlayerId): void {
  const i = w.queue.indexOf(id);
  if (i >= 0) w.queue.splice(i, 1);
  w.taken = 0;
  w.rejections = 0;
  w.last_rejection = null;
}

/** Seats the engine is waiting on now. */
export function awaitedSeats(state: GameState): PlayerId[] {
  const w = state.window;
  if (!w || state.status !== 'running') return [];
  return w.sequential ? w.queue.slice(0, 1) : w.queue.slice();
}
