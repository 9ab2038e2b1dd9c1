import { winChances, type Chances } from '../../../src/eval/model.js';
import type { Timeline, View } from './view-bridge.js';

/**
 * Each seat's chance to win at the position: the track's point there, else (the head drawn before
 * the history, or a snapshot the timeline starts from) the model read off the state shown. Null
 * where the model has nothing to say: no seat dealt yet, or an ended table whose placements the
 * page does not hold yet (the words then stay with lives and resolve).
 */
export function chancesAt(t: Timeline, cursor: number, state: View): Chances | null {
  const held = t.wins.at(cursor);
  if (held) return held.p;
  if (state.world.players.length === 0 || state.world.status === 'done') return null;
  return winChances(state, t.wins.form);
}
