import { z } from 'zod';

/**
 * One game for a worker (the job's id is the game id, so a game is queued at most once).
 * `live`: played as the server plays its games (the stored pace, lobby notices, the fault
 * boundary); `scheduled`: as `tiltyard tournament` plays them (whole-game commits for built-in
 * line-ups under `auto`, the given input clock).
 */
export const GameJobData = z.object({
  game_id: z.string().regex(/^game_[A-Za-z0-9_]{1,120}$/),
  mode: z.enum(['live', 'scheduled']),
  clock: z.enum(['wall', 'logical']).default('wall'),
  commit: z.enum(['auto', 'step']).default('auto'),
});
export type GameJobData = z.input<typeof GameJobData>;

/** What a finished job returns (its return value, for the queue's own tooling). */
export type GameJobResult = { game_id: string; status: string; last_seq: number };

/** BullMQ job name (the queue holds only games; the name is for dashboards). */
export const GAME_JOB = 'game';
