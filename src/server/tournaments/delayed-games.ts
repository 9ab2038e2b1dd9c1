import type { EventStore, TournamentGameRecord, TournamentRecord } from '../../store/index.js';
import { delayed, type Role } from '../auth/roles.js';
import type { CommitLog } from '../../live/commit-log.js';
import { MAX_SPECTATOR_DELAY_MS } from '../games/game-request.js';
import { holdsBack } from '../../live/hold-back.js';
import { delayedHead, holdBackOfGame } from '../games/spectator-delay.js';
import { COMMIT_MARGIN_MS } from '../spectate/commit-times.js';
import { duplicateHold } from './duplicate-hold.js';

/** Whether an ended game's end is visible to a delayed viewer at `now` (its delayed head reached its last seq). */
export async function pastDelay(store: EventStore, g: Pick<TournamentGameRecord, 'game_id'>, now: number, commits: CommitLog): Promise<boolean> {
  const game = await store.getGame(g.game_id);
  const hold = holdBackOfGame(game);
  return !holdsBack(hold) || (await delayedHead(store, game, hold, now, commits)) >= game.last_seq;
}

/**
 * A tournament's games as `role` may see them at `now`: for a delayed caller (anonymous,
 * spectator), a game whose end is still inside its spectator delay is shown as still playing (no
 * placements), so standings, head-to-head, progress and the games list never run ahead of the
 * delayed stream. Undelayed roles see the stored records as they are.
 */
export async function gamesAsSeenBy(store: EventStore, games: readonly TournamentGameRecord[], role: Role, now: number, commits: CommitLog): Promise<TournamentGameRecord[]> {
  if (!delayed(role)) return [...games];
  const recent = await recentlyWritten(store, games.filter((g) => g.state === 'ended').map((g) => g.game_id), now);
  const out: TournamentGameRecord[] = [];
  for (const g of games) {
    if (g.state !== 'ended' || !recent.has(g.game_id) || (await pastDelay(store, g, now, commits))) out.push(g);
    else out.push({ ...g, status: 'running', state: 'pending', placements: null });
  }
  return out;
}

/**
 * Of `gameIds`, the games written to within the longest spectator delay there is (plus the commit
 * margin): only these can still be inside a delay, so a tournament of a thousand long-ended games
 * costs one query, not one per game. Every step of any other game committed before its row's last
 * write, which is older than any delay (the fast path of delayedHead).
 */
async function recentlyWritten(store: EventStore, gameIds: readonly string[], now: number): Promise<Set<string>> {
  if (gameIds.length === 0) return new Set();
  const since = new Date(now - MAX_SPECTATOR_DELAY_MS - COMMIT_MARGIN_MS);
  const rows = await store.prisma.game.findMany({
    where: { gameId: { in: [...gameIds] }, OR: [{ updatedAt: { gt: since } }, { endedAt: { gt: since } }] },
    select: { gameId: true },
  });
  return new Set(rows.map((r) => r.gameId));
}

/**
 * A tournament's record as a delayed caller sees it, given its games as stored and as seen
 * (gamesAsSeenBy): while the end of one of its games is held back, neither has the tournament
 * ended — its status would tell that its last game is over before the game's own page does.
 */
export function recordAsSeen(t: TournamentRecord, stored: readonly TournamentGameRecord[], seen: readonly TournamentGameRecord[]): TournamentRecord {
  const held = seen.some((g, i) => g.state !== stored[i]?.state);
  return held && t.status === 'ended' ? { ...t, status: 'running', ended_at: null } : t;
}

/**
 * Whether a delayed caller's view of `t` can differ from the stored one at `now`: its games have a
 * spectator delay and the tournament is still running or ended within that delay (plus margin).
 * The others are shown from the stored counters, without reading their games.
 */
export function mayHoldBack(t: TournamentRecord, now: number): boolean {
  const delayMs = Number(t.options?.['spectator_delay_ms'] ?? 0);
  if (!(delayMs > 0)) return false;
  if (t.status !== 'ended' && t.status !== 'aborted') return true;
  return t.ended_at === null || Date.parse(t.ended_at) + delayMs + COMMIT_MARGIN_MS > now;
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
