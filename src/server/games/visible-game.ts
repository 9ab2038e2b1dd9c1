import type { EventStore, GameRecord, GameStatus } from '../../store/index.js';
import { delayed, type Role } from '../auth/roles.js';
import type { CommitLog } from '../../live/commit-log.js';
import { gameView, type GameView } from './game-view.js';
import { holdsBack } from '../../live/hold-back.js';
import { delayedHead, holdBackOfGame } from './spectator-delay.js';

/**
 * A game's record as it stood once event `head` was in (head < last_seq): the head, status,
 * placements, end and last change a delayed spectator may know of. `headTs` is that event's ts
 * (public: the event is); a ts outside the game's lifetime (a logical clock) gives way to
 * created_at, which reveals nothing.
 */
export function recordAt(game: GameRecord, head: number, headTs: string | null): GameRecord {
  if (head >= game.last_seq) return game;
  const ts = headTs === null ? NaN : Date.parse(headTs);
  const inLife = Number.isFinite(ts) && ts >= Date.parse(game.created_at) && ts <= Date.parse(game.updated_at);
  return {
    ...game,
    last_seq: head,
    // Only the end is hidden: `running` is public from the first commit (the lobby says so), and
    // a game that stopped for another reason (aborted) carries no hidden information.
    status: game.status === 'ended' ? 'running' : game.status,
    placements: null,
    ended_at: null,
    updated_at: inLife ? headTs! : game.created_at,
  };
}

/**
 * What a caller may see of a game's record: anonymous spectators of a game with a hold-back (a
 * spectator delay, or broadcast mode) see it as of the delayed head (the one the socket's delayed channel and GET /events use), so
 * nothing in it (seq, status, placements, seed, times, hash) runs ahead of the delayed stream;
 * then gameView hides the seed and hash chain from whom they are hidden.
 *
 * @example await visibleGame(store, game, 'spectator', Date.now(), bus.commits)
 */
export async function visibleGame(store: EventStore, game: GameRecord, role: Role, now: number, commits: CommitLog, seedInPlay = false): Promise<GameView> {
  const hold = holdBackOfGame(game);
  if (!delayed(role) || !holdsBack(hold)) return gameView(game, role, seedInPlay);
  const head = await delayedHead(store, game, hold, now, commits);
  if (head >= game.last_seq) return gameView(game, role, seedInPlay);
  const headTs = head > 0 ? ((await store.read(game.game_id, head - 1, 1))[0]?.ts ?? null) : null;
  return gameView(recordAt(game, head, headTs), role, seedInPlay);
}

/**
 * The statuses to ask the store for when a caller wants `wanted`: a delayed spectator asking for
 * running games must also get those that ended within their delay (they still run for it); the
 * page is then filtered on the status the caller sees (see visibleGame), so it may come out short.
 */
export function storeStatuses(wanted: readonly GameStatus[] | undefined, role: Role): GameStatus[] | undefined {
  if (!wanted) return undefined;
  if (!delayed(role) || !wanted.includes('running') || wanted.includes('ended')) return [...wanted];
  return [...wanted, 'ended'];
}
