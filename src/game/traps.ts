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
  for (const a of state.arena) {
    if (a.owner !== target || !a.face_down) continue;
    const name = state.cards[a.card_id];
    const fire = (note: string) => {
      fx.moves.push({ card_id: a.card_id, from: `arena:${target}`, to: 'discard', reason: 'trap_sprung' });
      fx.triggered.push(`${name}:${target}`);
      fx.notes.push(note);
    };
    if (name === 'Snare' && def.type === 'gambit' && entry.kind === 'play_card') {
      fire(`Snare: ${actor} −3 resolve, exposure +2`);
      fx.addResolve(actor, -3);
      fx.addExposure(actor, 2);
      return { affectScale: 1 };
    }
    if (name === 'Lockjaw' && def.type === 'pressure' && entry.kind === 'play_card') {
      fire(`Lockjaw: ${actor} locked out next round, affect halved`);
      fx.statuses.push({ player_id: actor, status: 'lockout', toward_player_id: null });
      return { affectScale: 0.5 };
    }
    if (name === 'Tell' && openPromise(state, actor, target)) {
      fire(`Tell: ${actor} broke a promise, −2 resolve; ${target} tempo +2`);
      fx.addResolve(actor, -2);
      fx.addTempo(target, 2);
      return { affectScale: 1 };
    }
  }
  return { affectScale: 1 };
}
