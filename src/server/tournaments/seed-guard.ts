import type { EventStore, GameRecord } from '../../store/index.js';

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

/**
 * tournamentSeedsInPlay for game records, forks included: a fork deals from its parent's seed, so
 * a fork of a tournament game still in play keeps its seed hidden as the parent does (no extra
 * query: the lineage is in the records' options).
 */
export async function seedsInPlay(store: EventStore, games: readonly Pick<GameRecord, 'game_id' | 'options'>[]): Promise<Set<string>> {
  const parentOf = new Map<string, string>();
  for (const g of games) {
    const parent = (g.options['fork'] as { parent_game_id?: unknown } | undefined)?.parent_game_id;
    if (typeof parent === 'string') parentOf.set(g.game_id, parent);
  }
  const inPlay = await tournamentSeedsInPlay(store, [...games.map((g) => g.game_id), ...parentOf.values()]);
  return new Set(games.map((g) => g.game_id).filter((id) => inPlay.has(id) || inPlay.has(parentOf.get(id) ?? '')));
}
