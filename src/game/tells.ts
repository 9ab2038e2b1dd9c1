import type { EmotionName, EmotionVector, Tell } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { round4 } from './math.js';
import type { GameState, PlayerState } from './state.js';

/** The emotion with the largest magnitude (first in schema order on ties). */
export function dominantEmotion(e: EmotionVector): EmotionName | null {
  let best: EmotionName | null = null;
  let size = 0;
  for (const k of EMOTIONS) {
    const v = Math.abs(e[k]);
    if (v > size) {
      best = k;
      size = v;
    }
  }
  return best;
}

/** Every seat's tell at this point, computed once for a view that needs them all. */
export function tellsOf(state: GameState): Map<string, Tell> {
  return new Map(state.players.map((p) => [p.player_id, tellOf(state, p)]));
}

/**
 * What other seats read off a seat (rules brief, "Tells"): the dominant emotion from exposure 4,
 * the whole vector from 8. Poker Face hides both; False Tell shows its chosen emotion instead.
 */
export function tellOf(state: GameState, p: PlayerState): Tell {
  const r = state.rules;
  const masks = state.arena.filter((a) => a.owner === p.player_id && (state.cards[a.card_id] === 'Poker Face' || state.cards[a.card_id] === 'False Tell'));
  if (masks.some((a) => state.cards[a.card_id] === 'Poker Face')) return { dominant: null, vector: null, masked: true };
  const spoof = masks.find((a) => a.chosen_emotion)?.chosen_emotion ?? null;
  if (p.exposure < r.tell_dominant_at) return { dominant: null, vector: null, masked: false };
  if (spoof) {
    // The shown vector is the real one with the chosen emotion on top, so it looks like a real tell.
    const top = Math.max(...EMOTIONS.map((k) => Math.abs(p.emotions[k])));
    const vector = p.exposure >= r.tell_vector_at ? { ...p.emotions, [spoof]: round4(Math.min(1, Math.max(r.effects.false_tell_shown, top + 0.1))) } : null;
    return { dominant: spoof, vector, masked: false };
  }
  return { dominant: dominantEmotion(p.emotions), vector: p.exposure >= r.tell_vector_at ? { ...p.emotions } : null, masked: false };
}
