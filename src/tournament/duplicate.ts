import type { ScheduledGame, TournamentConfig } from './types.js';

const pad = (n: number) => String(n).padStart(4, '0');

/**
 * One deal of one table: with duplicate seeds, the same seed once in each of the k seat rotations
 * (rotation p seats `table[(i + p) % k]` in seat i, so every entrant takes every seat once and
 * deal and seat luck cancel, as in duplicate bridge); without, one game in rotation `fallback`.
 * Keys are `r<round>-t<table>-d<deal>-p<rotation>` with numbers zero-padded to 4 digits (e.g.
 * `r0002-t0013-d0000-p1`): stable, unique within a tournament, and sorting them as strings gives
 * the play order — the canonical order the runner folds results in.
 */
export function dealGames(
  config: TournamentConfig,
  at: { round: number; table: number; deal: number },
  seed: number,
  entrants: readonly string[],
  fallback: number,
): ScheduledGame[] {
  const { round, table, deal } = at;
  const k = entrants.length;
  const rotations = config.duplicate ? Array.from({ length: k }, (_, p) => p) : [fallback % k];
  return rotations.map((p) => ({
    key: `r${pad(round)}-t${pad(table)}-d${pad(deal)}-p${p}`,
    round,
    table,
    seed,
    seats: rotation(entrants, p),
  }));
}

/**
 * Rotation p of a table: seat i holds `table[(i + p) % k]`. Over p = 0 … k − 1 every entrant takes
 * every seat once (the duplicate rule, shared by tournaments and the ladder).
 *
 * @example rotation(['a', 'b', 'c'], 1) // ['b', 'c', 'a']
 */
export const rotation = <T>(table: readonly T[], p: number): T[] => table.map((_, i) => table[(i + p) % table.length]!);

/** The games of a schedule that have no result yet (by key). */
export function unplayed(games: readonly ScheduledGame[], results: readonly { key: string }[]): ScheduledGame[] {
  const done = new Set(results.map((r) => r.key));
  return games.filter((g) => !done.has(g.key));
}

/** A duplicate group's id: games sharing it are one deal of one table and are kept or cut together. */
export const groupOf = (g: ScheduledGame): string => g.key.slice(0, g.key.lastIndexOf('-p'));

/**
 * Caps a schedule (in play order) at `max_games`, cutting whole duplicate groups only: a group is
 * kept only if all of it fits, and once one does not fit nothing after it is kept (so the cap is
 * a prefix of the play order and the same for every caller).
 */
export function capGames(games: readonly ScheduledGame[], max: number | null): ScheduledGame[] {
  if (max === null || games.length <= max) return [...games];
  const sizes = new Map<string, number>();
  for (const g of games) sizes.set(groupOf(g), (sizes.get(groupOf(g)) ?? 0) + 1);
  const out: ScheduledGame[] = [];
  const kept = new Set<string>();
  for (const g of games) {
    const id = groupOf(g);
    if (!kept.has(id)) {
      if (out.length + sizes.get(id)! > max) break;
      kept.add(id);
    }
    out.push(g);
  }
  return out;
}
