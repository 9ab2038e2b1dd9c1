import type { Placement } from '../protocol/index.js';
import type { TournamentGameRecord } from '../store/index.js';
import type { GameResult } from './types.js';

/** Keys in code-unit order (what `<` compares), never a locale's or a database collation's. */
export const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** Placement per seat (seat i is player plr_{i+1}), from a game_ended's placements. */
export function seatPlacements(seats: number, placements: readonly Placement[]): number[] {
  const byPlayer = new Map(placements.map((p) => [p.player_id, p.placement]));
  return Array.from({ length: seats }, (_, i) => {
    const p = byPlayer.get(`plr_${i + 1}`);
    if (p === undefined) throw new Error(`no placement for seat ${i} (plr_${i + 1})`);
    return p;
  });
}

/**
 * The results of a tournament's stored games in the canonical order (by schedule key): what the
 * ratings fold, so the standings do not depend on which game happened to finish first.
 */
export function resultsOf(games: readonly Pick<TournamentGameRecord, 'key' | 'round' | 'seats' | 'state' | 'placements'>[]): GameResult[] {
  return games
    .filter((g) => g.state === 'ended' && g.placements)
    .map((g) => ({ key: g.key, round: g.round, seats: g.seats, placements: seatPlacements(g.seats.length, g.placements!) }))
    .sort(byKey);
}

/**
 * The results the ratings fold: resultsOf without degraded games (a seat out of budget, played by
 * the engine's fallback: src/runner/degraded.ts) unless the tournament rates them. The schedule
 * (swiss pairings) still sees every result: a degraded game was played.
 */
export function ratedResultsOf(games: readonly Pick<TournamentGameRecord, 'key' | 'round' | 'seats' | 'state' | 'placements' | 'degraded'>[], rateDegraded: boolean): GameResult[] {
  return resultsOf(rateDegraded ? games : games.filter((g) => !g.degraded));
}
