import type { GameEvent } from '../protocol/index.js';

/**
 * What took a seat's last resolve before it went out: an attack (whose, with which card), a
 * ritual in the arena, upkeep (the yard closing in, tempo and lock-outs), or a settled commitment.
 */
export type FinalBlow =
  | { kind: 'attack'; by: string; card: string | null }
  | { kind: 'ritual'; by: string; card: string }
  | { kind: 'upkeep' }
  | { kind: 'ledger' };

/** One seat's end of the game. `out` is null for a seat still standing at the end. */
export type SeatResult = {
  player_id: string;
  placement: number;
  alive: boolean;
  lives: number;
  out: { turn: number; seq: number; blow: FinalBlow | null } | null;
};

/** The result of an ended game, best placement first. */
export type GameResult = {
  /** The game_ended event's seq. */
  seq: number;
  reason: 'last_seat_standing' | 'all_eliminated' | 'round_cap';
  rounds: number;
  seats: SeatResult[];
};

/**
 * The result banner's model: placements from game_ended, and for each seat that went out, the
 * round and what dealt the last blow to its resolve before that (from the same projected events
 * every view has: resolutions, rituals, upkeep and ledger effects are public). Null until the
 * events hold game_ended.
 *
 * @example gameResult(events)?.seats[0] // { player_id: 'plr_2', placement: 1, alive: true, lives: 2, out: null }
 */
export function gameResult(events: readonly GameEvent[]): GameResult | null {
  const blow = new Map<string, FinalBlow>();
  const out = new Map<string, { turn: number; seq: number; blow: FinalBlow | null }>();
  const hit = (deltas: Record<string, number>, b: FinalBlow) => {
    for (const [id, d] of Object.entries(deltas)) if (d < 0) blow.set(id, b);
  };
  for (const e of events) {
    switch (e.type) {
      case 'action_resolved':
        hit(e.payload.tactical_effect.resolve_delta, { kind: 'attack', by: e.payload.actor_player_id, card: e.payload.card?.name ?? null });
        break;
      case 'ritual_fired':
        hit(e.payload.tactical_effect.resolve_delta, { kind: 'ritual', by: e.payload.owner_player_id, card: e.payload.card.name });
        break;
      case 'upkeep_applied':
        hit(e.payload.resolve_delta, { kind: 'upkeep' });
        break;
      case 'ledger_settled':
        hit(e.payload.tactical_effect.resolve_delta, { kind: 'ledger' });
        break;
      case 'player_eliminated':
        out.set(e.payload.player_id, { turn: e.turn, seq: e.seq, blow: blow.get(e.payload.player_id) ?? null });
        break;
      case 'game_ended':
        return {
          seq: e.seq,
          reason: e.payload.reason,
          rounds: e.payload.rounds,
          seats: e.payload.placements.map((p) => ({ player_id: p.player_id, placement: p.placement, alive: p.alive, lives: p.lives, out: out.get(p.player_id) ?? null })),
        };
      default:
    }
  }
  return null;
}
