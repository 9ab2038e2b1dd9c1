/**
 * The game's job failed in the queue (a worker's error), and the store does not say it settled.
 * Its own module so the server can tell this error apart without loading the queue (bullmq).
 */
export class GameJobFailedError extends Error {
  override readonly name = 'GameJobFailedError';
}
