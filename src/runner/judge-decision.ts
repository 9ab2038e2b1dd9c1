import { decide, type GameState } from '../game/index.js';
import type { Window } from '../protocol/index.js';
import { asDecision } from './decision-record.js';

/** The engine's verdict on an answer it has not been given yet: null when it would take it. */
export type Verdict = { code: string; message: string } | null;

/**
 * What the engine would say to `raw` as `seat`'s answer to the open `window`, without moving the
 * game: the pure `decide` on a copy of the state. A seat answered over HTTP asks this first, so a
 * person's illegal choice is refused in words (422) and the seat stays pending, instead of being
 * spent on the engine's reprompt. The answer goes through asDecision as the runner's does, so the
 * verdict is the one the real step would give.
 *
 * @example judgeDecision(state, 'plr_2', 'action', { selected_action: { kind: 'pass' } }) // null
 */
export function judgeDecision(state: GameState, seat: string, window: Window, raw: unknown): Verdict {
  const res = decide(state, { type: 'decision', player_id: seat, window, decision: asDecision(raw) });
  if (!res.ok) return res.rejection;
  for (const e of res.events) {
    if (e.type === 'action_rejected' && e.payload.player_id === seat)
      return { code: e.payload.code ?? 'rejected', message: e.payload.message ?? 'the engine refused this answer' };
    if (e.type === 'secret_plan_committed' && e.payload.player_id === seat && e.payload.rejection) return e.payload.rejection;
  }
  return null;
}
