import type { GameEvent } from '../protocol/index.js';

/** How one game ended, as a counterfactual compares games. */
export type GameOutcome = {
  /** Per seat, in seat order: where it placed, the lives it kept, whether it was still in. */
  seats: Array<{ player_id: string; placement: number; lives: number; alive: boolean }>;
  /** Each elimination and the seat credited with it (null: nobody struck it that round). */
  eliminations: Array<{ player_id: string; by: string | null; turn: number }>;
  rounds: number;
  reason: string;
};

/**
 * The outcome of a whole log, or null if it has not ended. An elimination is credited to the last
 * seat whose resolved action targeted the eliminated one in the same round before it went out:
 * the engine takes lives at the round's end from resolve, so "who eliminated whom" is the seat
 * that dealt the last blow, not a cause the log states.
 */
export function outcomeOf(events: readonly GameEvent[]): GameOutcome | null {
  const lastHit = new Map<string, { by: string; turn: number }>();
  const eliminations: GameOutcome['eliminations'] = [];
  for (const e of events) {
    if (e.type === 'action_resolved') {
      for (const t of e.payload.target_player_ids) if (t !== e.payload.actor_player_id) lastHit.set(t, { by: e.payload.actor_player_id, turn: e.turn });
    } else if (e.type === 'player_eliminated') {
      const hit = lastHit.get(e.payload.player_id);
      eliminations.push({ player_id: e.payload.player_id, by: hit && hit.turn === e.turn ? hit.by : null, turn: e.turn });
    } else if (e.type === 'game_ended') {
      const seats = [...e.payload.placements]
        .sort((a, b) => Number(a.player_id.slice(4)) - Number(b.player_id.slice(4)))
        .map((p) => ({ player_id: p.player_id, placement: p.placement, lives: p.lives, alive: p.alive }));
      return { seats, eliminations, rounds: e.payload.rounds, reason: e.payload.reason };
    }
  }
  return null;
}
