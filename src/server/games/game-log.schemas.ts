import { z } from 'zod';

const MAX_SEQ = 2 ** 31 - 1;

/** A whole number in a query string: digits only, so "1.5", "-1", "1e3" and "" are refused. */
const QueryInt = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

/** `?view=` as typed; which views a role may ask for is viewFor's business (400/403). */
const View = z
  .string()
  .optional()
  .meta({ description: 'spectator, broadcast (on a broadcast game: every seat, held back, with LLM seats’ stated reasoning on the events their answers made), researcher, admin or a seat id (plr_1…); default: the caller’s role (anonymous callers of a broadcast game: broadcast). Above the role: 403' });

/** GET /games/:id/events */
export const EventsQuery = z.object({
  after: QueryInt(0, MAX_SEQ).default(0).meta({ description: 'Events with seq > after (0: from the start)' }),
  limit: QueryInt(1, 1000).default(200).meta({ description: 'At most this many events' }),
  view: View,
});
export type EventsQuery = z.infer<typeof EventsQuery>;

/** GET /games/:id/snapshot */
export const SnapshotQuery = z.object({
  seq: QueryInt(0, MAX_SEQ).optional().meta({ description: 'The state right after this event (0: before any); default: the head' }),
  view: View,
});
export type SnapshotQuery = z.infer<typeof SnapshotQuery>;

/** GET /games/:id/replay */
export const ReplayQuery = z.object({ view: View });
export type ReplayQuery = z.infer<typeof ReplayQuery>;

/** GET /games/:id/win-probability */
export const WinProbabilityQuery = z.object({ view: View });
export type WinProbabilityQuery = z.infer<typeof WinProbabilityQuery>;

/** GET /games/:id/traces */
export const TracesQuery = z.object({
  player: z.string().regex(/^plr_\d{1,2}$/, 'a seat id (plr_N)').optional().meta({ description: 'One seat’s decisions only' }),
  turn: QueryInt(0, MAX_SEQ).optional().meta({ description: 'One round’s decisions only' }),
});
export type TracesQuery = z.infer<typeof TracesQuery>;
