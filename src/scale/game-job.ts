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
  /** The game's `attempt` when queued: a failed game put back in play is a new job (see jobIdOf). */
  attempt: z.int().min(0).max(1_000_000).default(0),
  /**
   * The tournament whose cost cap the game's LLM calls reserve on (RedisSpendLedger): set when the
   * tournament has a cap; the worker reads the cap itself from the tournament's stored options.
   */
  tournament_id: z.string().regex(/^trn_[A-Za-z0-9_-]{1,120}$/).optional(),
});
export type GameJobData = z.input<typeof GameJobData>;
/** A job as a worker reads it: defaults filled in. */
export type ParsedGameJob = z.output<typeof GameJobData>;

/**
 * The job id of a game's attempt: the game id for its first, `<game id>-r<attempt>` after it was
 * put back in play. BullMQ adds a job id at most once while it exists, so the failed job of an
 * earlier attempt (kept for inspection) cannot block the retry.
 *
 * @example jobIdOf({ game_id: 'game_x', attempt: 2 }) // 'game_x-r2'
 */
export const jobIdOf = (data: { game_id: string; attempt?: number | undefined }): string => (data.attempt ? `${data.game_id}-r${data.attempt}` : data.game_id);

/**
 * How often BullMQ runs a job whose run threw (a worker's error, a database that stayed away past
 * the store's own wait), with exponential backoff between runs, before the job counts as failed.
 */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF = { type: 'exponential', delay: 5_000 } as const;

/** What a finished job returns (its return value, for the queue's own tooling). */
export type GameJobResult = { game_id: string; status: string; last_seq: number };

/** BullMQ job name (the queue holds only games; the name is for dashboards). */
export const GAME_JOB = 'game';
