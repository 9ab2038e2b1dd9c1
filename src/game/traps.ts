import type { CardDef } from './cards.js';
import type { EffectBuilder } from './effect-builder.js';
import { openPromise } from './ledger.js';
import type { GameState, StackEntry } from './state.js';

export type TrapOutcome = { affectScale: number };

/**
 * Face-down traps of the target fire before the attack resolves, the oldest matching one only:
 * Snare on a gambit, Lockjaw on a pressure card, Tell on a broken promise to its owner.
 */
export function springTraps(state: GameState, fx: EffectBuilder, entry: StackEntry, def: CardDef, target: string): TrapOutcome {
  const actor = entry.player_id;
  const fx_ = state.rules.effects;
  for (const a of state.arena) {
    if (a.owner !== target || !a.face_down) continue; // False Tell lies face down too, but never springs
    const name = state.cards[a.card_id];
    const fire = (note: string) => {
      fx.moves.push({ card_id: a.card_id, from: `arena:${target}`, to: 'discard', reason: 'trap_sprung' });
      fx.triggered.push(`${name}:${target}`);
      fx.notes.push(note);
    };
    if (name === 'Snare' && def.type === 'gambit' && entry.kind === 'play_card') {
      fire(`Snare: ${actor} ${fx_.snare_resolve} resolve, exposure +${fx_.snare_exposure}`);
      fx.addResolve(actor, fx_.snare_resolve);
      fx.addExposure(actor, fx_.snare_exposure);
      return { affectScale: 1 };
    }
    if (name === 'Lockjaw' && def.type === 'pressure' && entry.kind === 'play_card') {
      fire(`Lockjaw: ${actor} locked out next round, affect halved`);
      fx.statuses.push({ player_id: actor, status: 'lockout', toward_player_id: null });
      return { affectScale: fx_.lockjaw_affect_scale };
    }
    if (name === 'Tell' && openPromise(state, actor, target)) {
      fire(`Tell: ${actor} broke a promise, ${fx_.tell_resolve} resolve; ${target} tempo +${fx_.tell_tempo}`);
      fx.addResolve(actor, fx_.tell_resolve);
      fx.addTempo(target, fx_.tell_tempo);
      return { affectScale: 1 };
    }
  }
  return { affectScale: 1 };
}
