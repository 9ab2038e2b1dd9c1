import { z } from 'zod';
import { checkJsonBounds } from '../../protocol/index.js';

/** The largest decision JSON a seat may send (a real one is well under 4 KB). */
export const MAX_DECISION_BYTES = 32 * 1024;

/**
 * `POST /games/:id/seats/:player_id/decision`: the `decision` exactly as an agent's state_patch
 * carries it, and the `requestId` of the request it answers (a stale one is a 409).
 *
 * @example SeatDecisionBody.parse({ requestId: 'req_…', decision: { selected_action: { kind: 'pass' } } })
 */
export const SeatDecisionBody = z.strictObject({
  requestId: z.string().min(1, 'must name the request answered').max(200, 'is longer than any request id'),
  decision: z.unknown().superRefine((d, ctx) => {
    if (d === undefined) return void ctx.addIssue({ code: 'custom', message: 'is required: the answer, as an agent returns it' });
    const bounds = checkJsonBounds(d);
    if (bounds) ctx.addIssue({ code: 'custom', message: `${bounds.code}: ${bounds.message}` });
    else if (JSON.stringify(d).length > MAX_DECISION_BYTES) ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_DECISION_BYTES} bytes of JSON` });
  }),
});
export type SeatDecisionBody = z.output<typeof SeatDecisionBody>;

/** The seat id in a seat route. */
export const SeatParam = z.string().regex(/^plr_\d{1,2}$/, 'must be a seat id like plr_2');
