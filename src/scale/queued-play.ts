import { degradedOf } from '../runner/degraded.js';
import type { InputClockName } from '../runner/input-clock.js';
import type { EventStore } from '../store/index.js';
import type { CommitPolicy, GameOutcome } from '../tournament/play-scheduled.js';
import type { PlayCap } from '../tournament/runner.js';
import type { FollowOptions, GameQueue } from './game-queue.js';

/**
 * Where a tournament's scheduled game runs when the deployment is scaled out: on a worker, via
 * the queue, instead of in this process (the runner's `play` port). Resolves as playScheduled
 * does: `ended` with the placements from the store, `pending` once the signal stops following
 * (the game stays queued), and throws for a game that failed, so the runner records it failed.
 * Under a cost cap the job names the tournament, so the worker reserves on its shared ledger, and
 * the cap's stop (a refusal on any worker) stops following as the runner's signal does.
 */
export function queuedPlay(queue: GameQueue, store: EventStore, how: { clock: InputClockName; commit: CommitPolicy; mode?: 'live' | 'scheduled' } & FollowOptions): (gameId: string, cap?: PlayCap) => Promise<GameOutcome> {
  return async (gameId, cap = {}) => {
    // The game's attempt names its job: a failed game put back in play is followed as a new job.
    const { attempt } = await store.getGame(gameId);
    const signals = [how.signal, cap.signal].filter((s): s is AbortSignal => s !== undefined);
    const follow = { ...how, ...(signals.length ? { signal: AbortSignal.any(signals) } : {}) };
    const capped = cap.spend && cap.tournament_id ? { tournament_id: cap.tournament_id } : {};
    const game = await queue.follow(store, { game_id: gameId, mode: how.mode ?? 'scheduled', clock: how.clock, commit: how.commit, attempt, ...capped }, follow);
    if (!game) return { status: 'pending' };
    if (game.status === 'ended') return { status: 'ended', placements: game.placements ?? [], degraded: degradedOf(game.options) !== null };
    throw new Error(`game ${gameId} ${game.status}${game.failure_reason ? `: ${game.failure_reason}` : ''}`);
  };
}
