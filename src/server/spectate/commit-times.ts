import type { GameEvent } from '../../protocol/index.js';
import type { GameRecord } from '../../store/index.js';

/** How much later than a time the store or the engine recorded a step may have committed (an append's duration, generously). */
export const COMMIT_MARGIN_MS = 1_000;

/**
 * When an event the feed did not see on the bus (committed before the feed existed, e.g. before a
 * restart) committed, erring late: a delayed audience must never see it early. The game row's last
 * append (`updated_at`, or `ended_at`) plus a margin bounds every stored step from above, and so
 * does `now`. An event's own ts is tighter, but only when the game is stamped by the wall clock: a
 * logical clock's ts lies outside the game's lifetime, and then only the row's bound is used.
 *
 * @example estimatedCommit(game, event, Date.now()) // ≥ the step's true commit time
 */
export function estimatedCommit(game: Pick<GameRecord, 'created_at' | 'updated_at' | 'ended_at'>, event: Pick<GameEvent, 'ts'>, now: number): number {
  const last = Math.max(Date.parse(game.updated_at), game.ended_at ? Date.parse(game.ended_at) : 0);
  const bound = Math.min(last + COMMIT_MARGIN_MS, now);
  const ts = Date.parse(event.ts);
  const wallClock = Number.isFinite(ts) && ts >= Date.parse(game.created_at) - COMMIT_MARGIN_MS && ts <= last;
  return wallClock ? Math.min(ts + COMMIT_MARGIN_MS, bound) : bound;
}
