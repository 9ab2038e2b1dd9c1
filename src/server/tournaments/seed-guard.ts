import type { EventStore } from '../../store/index.js';

/**
 * Of these games, the ones whose seed stays hidden from non-admins although they ended: games of a
 * tournament still being played. Duplicate seeds deal the same cards to every seat rotation of a
 * table, so an ended game's seed is the deal of a sibling still running or still to come.
 *
 * @example (await tournamentSeedsInPlay(store, ['game_t_ab12'])).has('game_t_ab12') // true mid-tournament
 */
export async function tournamentSeedsInPlay(store: EventStore, gameIds: readonly string[]): Promise<Set<string>> {
  if (gameIds.length === 0) return new Set();
  const rows = await store.prisma.tournamentGame.findMany({
    where: { gameId: { in: [...gameIds] }, tournament: { status: { notIn: ['ended', 'aborted'] } } },
    select: { gameId: true },
  });
  return new Set(rows.map((r) => r.gameId));
}
