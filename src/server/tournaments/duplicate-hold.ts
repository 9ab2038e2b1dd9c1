import { ForbiddenException } from '@nestjs/common';
import type { EventStore } from '../../store/index.js';
import { tournamentGameId } from '../../tournament/game-id.js';
import type { Role } from '../auth/roles.js';

/** Why a game's log is held back: the duplicate set it belongs to, and how much of it is over. */
export type DuplicateHold = { tournament_id: string; rotations: number; over: number };

/** The error code of a held game, in every channel (REST message prefix, socket `error.code`). */
export const DUPLICATE_SET_RUNNING = 'tournament/duplicate_set_running';

type LinkedRow = { tournament_id: string; key: string; status: string; duplicate: unknown; seats: number };
type OpenRow = { tournament_id: string; batch: unknown; duplicate: unknown };

/** Tournaments still being played (or resumable): their duplicate sets may have games to come. */
const IN_PLAY = new Set(['created', 'running']);

/**
 * Whether a game is one of the seat rotations of a duplicate deal (same tournament, same seed) of
 * which some game is not over yet, while its tournament is in play. Every rotation deals the same
 * cards, so anything shown of one (even its public plays, live) tells the hands of the others. A
 * game is over when it ended, failed or was aborted; a tournament that ended or was aborted plays
 * no more, so its sets are open. A game created but not yet linked to its tournament (the instant
 * between the two writes) is found through the batch its runner saved first.
 *
 * @example await duplicateHold(store, 'game_t_ab12') // { tournament_id: 'trn_1', rotations: 4, over: 1 }
 */
export async function duplicateHold(store: EventStore, gameId: string): Promise<DuplicateHold | null> {
  const [linked] = await store.prisma.$queryRawUnsafe<LinkedRow[]>(
    `SELECT tg.tournament_id, tg.key, t.status, t.config->'duplicate' AS duplicate, (t.config->>'seats')::int AS seats
     FROM tournament_games tg JOIN tournaments t USING (tournament_id) WHERE tg.game_id = $1`,
    gameId,
  );
  if (linked) {
    if (!IN_PLAY.has(linked.status) || linked.duplicate === false) return null;
    // The set's keys differ only in the rotation suffix (`…-p<rotation>`, see dealGames).
    const group = linked.key.slice(0, linked.key.lastIndexOf('-p') + 2);
    const [row] = await store.prisma.$queryRawUnsafe<{ over: number }[]>(
      `SELECT count(*)::int AS over FROM tournament_games s JOIN games g USING (game_id)
       WHERE s.tournament_id = $1 AND starts_with(s.key, $2)
         AND (s.error IS NOT NULL OR g.status IN ('ended', 'failed', 'aborted'))`,
      linked.tournament_id,
      group,
    );
    const over = Number(row?.over ?? 0);
    return over < linked.seats ? { tournament_id: linked.tournament_id, rotations: linked.seats, over } : null;
  }
  // Not linked (yet): a game of a tournament's current batch is held like its linked siblings.
  if (!gameId.startsWith('game_t_')) return null;
  const open = await store.prisma.$queryRawUnsafe<OpenRow[]>(
    `SELECT tournament_id, batch, config->'duplicate' AS duplicate FROM tournaments WHERE status IN ('created', 'running') AND batch IS NOT NULL`,
  );
  for (const t of open) {
    if (t.duplicate === false || !Array.isArray(t.batch)) continue;
    const batch = t.batch as { key: string; seats: unknown[] }[];
    const game = batch.find((g) => tournamentGameId(t.tournament_id, g.key) === gameId);
    if (game) return { tournament_id: t.tournament_id, rotations: game.seats.length, over: 0 };
  }
  return null;
}

/** The words of a hold, the same on REST and the socket. */
export function holdMessage(gameId: string, hold: DuplicateHold): string {
  const left = hold.rotations - hold.over;
  return (
    `${DUPLICATE_SET_RUNNING}: game ${gameId} is one of ${hold.rotations} seat rotations of one deal in tournament ${hold.tournament_id} ` +
    `(duplicate seeds), and ${left} of them ${left === 1 ? 'is' : 'are'} not over yet; every rotation deals the same cards, so its events, ` +
    `snapshots, analytics and live stream open to spectators and researchers when the whole set has ended (admin tokens see it now)`
  );
}

/**
 * Throws a 403 `tournament/duplicate_set_running` for a non-admin caller of a held game (see
 * duplicateHold); admins see every game live, as everywhere else.
 */
export async function refuseHeld(store: EventStore, gameId: string, role: Role): Promise<void> {
  if (role === 'admin') return;
  const hold = await duplicateHold(store, gameId);
  if (hold) throw new ForbiddenException(holdMessage(gameId, hold));
}
