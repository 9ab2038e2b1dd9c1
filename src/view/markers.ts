import type { GameEvent } from '../protocol/index.js';

export type MarkerKind = 'round' | 'phase' | 'life_lost' | 'elimination' | 'manipulation' | 'broken_promise' | 'game_end';
/** A point on the scrubber worth jumping to. */
export type Marker = { seq: number; turn: number; kind: MarkerKind; label: string; player_id: string | null };

/**
 * Scrubber markers: round and phase starts, lives lost, eliminations, successful manipulations,
 * broken promises (where the view sees settlements) and the end.
 *
 * @example scrubberMarkers(events).filter((m) => m.kind === 'round').map((m) => m.seq)
 */
export function scrubberMarkers(events: readonly GameEvent[]): Marker[] {
  const out: Marker[] = [];
  for (const e of events) {
    const m = (kind: MarkerKind, label: string, player_id: string | null = null) => out.push({ seq: e.seq, turn: e.turn, kind, label, player_id });
    switch (e.type) {
      case 'phase_changed':
        if (e.payload.phase === 'upkeep') m('round', `round ${e.payload.turn}`);
        m('phase', `${e.payload.phase} (round ${e.payload.turn})`);
        break;
      case 'life_lost':
        m('life_lost', `${e.payload.player_id} loses a life (${e.payload.lives_left} left)`, e.payload.player_id);
        break;
      case 'player_eliminated':
        m('elimination', `${e.payload.player_id} is eliminated`, e.payload.player_id);
        break;
      case 'action_resolved':
        if (e.payload.manipulation_outcome === 'success' && e.payload.attack_plan) {
          const plan = e.payload.attack_plan;
          m('manipulation', `${e.payload.actor_player_id} manipulates ${plan.target_player_id} (${plan.emotional_intent})`, e.payload.actor_player_id);
        }
        break;
      case 'ledger_settled':
        for (const s of e.payload.settlements ?? e.own?.settlements ?? []) {
          if (s.outcome === 'broken') m('broken_promise', `${s.speaker_player_id} breaks a ${s.kind}${s.target_player_id ? ` to ${s.target_player_id}` : ''}`, s.speaker_player_id);
        }
        break;
      case 'game_ended':
        m('game_end', `game over (${e.payload.reason})`);
        break;
      default:
    }
  }
  return out;
}
