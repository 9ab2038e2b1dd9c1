import type { KineticIntent } from '../protocol/index.js';
import { COMBO_BREAK_ORDER, defOf } from './cards.js';
import type { EffectBuilder } from './effect-builder.js';
import { player } from './players.js';
import type { Rng } from './rng.js';
import type { GameState, PlayerId } from './state.js';

/**
 * The kinetic half of an attack (rules brief, "Kinetic intents"). `magnitude` is 1 normally and 0
 * after a slip halves a one-shot effect (round down); counts are halved by the caller.
 */
export function applyKinetic(
  state: GameState,
  rng: Rng,
  fx: EffectBuilder,
  intent: KineticIntent,
  actor: PlayerId,
  target: PlayerId,
  amount: number,
): string | null {
  if (amount <= 0) return null;
  const t = player(state, target);
  switch (intent) {
    case 'discard_pressure': {
      const picks = rng.shuffle(t.hand).slice(0, amount);
      for (const c of picks) fx.moves.push({ card_id: c, from: `hand:${target}`, to: 'discard', reason: 'discard_pressure' });
      return picks.length ? `discard_pressure: ${target} discards ${picks.length}` : null;
    }
    case 'lockout':
      fx.statuses.push({ player_id: target, status: 'lockout', toward_player_id: null });
      return `lockout: ${target} gets 1 action next round`;
    case 'forced_line':
      fx.statuses.push({ player_id: target, status: 'forced_line', toward_player_id: actor });
      return `forced_line: ${target}'s attacks next round must target ${actor}`;
    case 'tempo_swing': {
      const available = t.tempo + (fx.tempo[target] ?? 0);
      // Tempo moves, it is not destroyed: an attacker at the cap takes (and the target loses) less.
      const room = state.rules.tempo_cap - (player(state, actor).tempo + (fx.tempo[actor] ?? 0));
      const moved = Math.min(amount, available, room);
      if (moved <= 0) return null;
      fx.addTempo(target, -moved);
      fx.addTempo(actor, moved);
      return `tempo_swing: ${moved} tempo from ${target} to ${actor}`;
    }
    case 'combo_break': {
      const own = state.arena.filter((a) => a.owner === target && !fx.moves.some((m) => m.card_id === a.card_id));
      for (const type of COMBO_BREAK_ORDER) {
        const hit = own.find((a) => defOf(state, a.card_id).type === type);
        if (hit) {
          fx.moves.push({ card_id: hit.card_id, from: `arena:${target}`, to: 'discard', reason: 'combo_break' });
          return `combo_break: destroyed ${state.cards[hit.card_id]} of ${target}`;
        }
      }
      return null;
    }
  }
}
