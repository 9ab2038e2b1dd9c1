import type { GameEvent } from '../protocol/index.js';
import type { GameResult, ScheduledGame } from './types.js';

/**
 * A scheduled game's result from its event log: the placement of each seat, read from
 * `game_started` (player → seat) and `game_ended` (player → placement). Null while the log has
 * no `game_ended` (the game is unfinished).
 */
export function resultFromEvents(game: Pick<ScheduledGame, 'key' | 'round' | 'seats'>, events: readonly GameEvent[]): GameResult | null {
  const seatOf = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'game_started') for (const p of e.payload.players) seatOf.set(p.player_id, p.seat);
    if (e.type !== 'game_ended') continue;
    const placements = game.seats.map(() => 0);
    for (const p of e.payload.placements) {
      const seat = seatOf.get(p.player_id);
      if (seat === undefined || seat >= placements.length) throw new Error(`game ${game.key}: placement for a player with no seat (${p.player_id})`);
      placements[seat] = p.placement;
    }
    if (placements.includes(0)) throw new Error(`game ${game.key}: game_ended places ${e.payload.placements.length} of ${placements.length} seats`);
    return { key: game.key, round: game.round, seats: [...game.seats], placements };
  }
  return null;
}
