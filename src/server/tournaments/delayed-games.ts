import type { EventStore, TournamentGameRecord } from '../../store/index.js';
import { delayed, type Role } from '../auth/roles.js';
import type { CommitLog } from '../games/commit-log.js';
import { delayedHead, spectatorDelayOf } from '../games/spectator-delay.js';
import { duplicateHold } from './duplicate-hold.js';

/** Whether an ended game's end is visible to a delayed viewer at `now` (its delayed head reached its last seq). */
export async function pastDelay(store: EventStore, g: Pick<TournamentGameRecord, 'game_id'>, now: number, commits: CommitLog): Promise<boolean> {
  const game = await store.getGame(g.game_id);
  const delayMs = spectatorDelayOf(game);
  return delayMs === 0 || (await delayedHead(store, game, delayMs, now, commits)) >= game.last_seq;
}

/**
 * A tournament's games as `role` may see them at `now`: for a delayed caller (anonymous,
 * spectator), a game whose end is still inside its spectator delay is shown as still playing (no
 * placements), so standings, head-to-head, progress and the games list never run ahead of the
 * delayed stream. Undelayed roles see the stored records as they are.
 */
export async function gamesAsSeenBy(store: EventStore, games: readonly TournamentGameRecord[], role: Role, now: number, commits: CommitLog): Promise<TournamentGameRecord[]> {
  if (!delayed(role)) return [...games];
  const out: TournamentGameRecord[] = [];
  for (const g of games) {
    if (g.state !== 'ended' || (await pastDelay(store, g, now, commits))) out.push(g);
    else out.push({ ...g, status: 'running', state: 'pending', placements: null });
  }
  return out;
}

/**
 * The games whose logs `role` may fold into tournament-wide figures: everything for an admin;
 * for anyone else, not a game whose duplicate set is still being played (its log tells the hands
 * of the rotations to come, as GET /games/:id/events refuses it: see duplicateHold).
 */
export async function foldableBy<T extends Pick<TournamentGameRecord, 'game_id'>>(store: EventStore, games: readonly T[], role: Role): Promise<T[]> {
  if (role === 'admin') return [...games];
  const out: T[] = [];
  for (const g of games) if ((await duplicateHold(store, g.game_id)) === null) out.push(g);
  return out;
}
