import type { Window } from '../../protocol/index.js';
import type { StepContext } from '../context.js';
import type { PlayerId } from '../state.js';

/**
 * Records a rejected answer. Returns true when the seat gets another try (rules brief: asked once
 * more with the reason), false when the caller must apply the window's fallback.
 */
export function reject(ctx: StepContext, id: PlayerId, window: Window, code: string, message: string, canReprompt: boolean): boolean {
  const w = ctx.state.window!;
  const attempt = w.rejections + 1;
  const reprompt = canReprompt && attempt < 2;
  ctx.emit('action_rejected', { player_id: id, window, code, message, attempt, reprompt }, [
    { key: 'code', to: [id] },
    { key: 'message', to: [id] },
  ]);
  return reprompt;
}
