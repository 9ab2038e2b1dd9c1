import type { Personality } from './personality.js';
import { amplify, RULES } from './rules.js';
import { afraid, calm } from './moods.js';
import type { View } from './view.js';

const DAMAGE: Readonly<Record<string, number>> = { Overreach: 4, Feint: 2, Sever: 1, Strip: 1, Needle: 1, Humiliate: 1, Whisper: 0 };

/**
 * Whether to answer an incoming attack with a guard, and which: always against heavy or lethal hits
 * and when afraid; against light ones when guards would otherwise rot in a full hand. Riposte when
 * its 2 prevented cover the hit and tempo allows (it also hits back); Brace otherwise.
 */
export function react(v: View, pers: Personality): { card_id: string | null } {
  const inc = v.r.constraints.incoming_attack;
  let brace: string | null = null;
  let riposte: string | null = null;
  for (const a of v.r.legal_actions) {
    if (a.kind !== 'reaction') continue;
    if (a.name === 'Brace') brace = a.card_id;
    else if (a.name === 'Riposte') riposte = a.card_id;
  }
  if (!brace && !riposte) return { card_id: null };
  const raw = (DAMAGE[inc?.card_name ?? ''] ?? RULES.activate.spring_damage) * amplify(v.me.exposure);
  const hand = v.r.player_private_view.hand;
  const guards = hand.reduce((n, c) => n + (c.name === 'Brace' || c.name === 'Riposte' ? 1 : 0), 0);
  const easy = calm(v.emo);
  const want =
    afraid(v.emo) ||
    raw >= (easy ? 4 : 2) ||
    v.me.resolve <= Math.round(raw) + 1 ||
    guards >= (easy ? 4 : 2) ||
    hand.length >= 8 ||
    v.rng.next() < pers.react * (easy ? 0.2 : 1);
  if (!want) return { card_id: null };
  const riposteFits = riposte && (raw <= 2.5 || !brace) && (v.me.tempo >= 2 || !brace || v.emo.anger > 0.3);
  return { card_id: riposteFits ? riposte : brace ?? riposte };
}
