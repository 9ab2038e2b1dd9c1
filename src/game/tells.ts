import type { EmotionName, EmotionVector, EventType, Tell } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { defOf } from './cards.js';
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
  const tells = new Map<string, Tell>();
  for (const p of state.players) tells.set(p.player_id, tellOf(state, p));
  return tells;
}

/**
 * Events whose evolve handler touches nothing a tell reads (exposure, emotions, the arena's masks,
 * the card map, the rules), so every tell after one equals the tell before it: the engine need not
 * recompute the table's tells after them (about two events in three). Checked against a full
 * recomputation after every event of seeded games (test/game/tell-neutral.prop.spec.ts).
 */
export const TELL_NEUTRAL: ReadonlySet<EventType> = new Set<EventType>([
  'phase_changed',
  'cards_drawn',
  'deck_reshuffled',
  'hidden_reseeded',
  'cards_discarded',
  'secret_plan_committed',
  'speech_posted',
  'talk_finished',
  'action_submitted',
  'action_rejected',
  'reaction_requested',
  'reaction_submitted',
  'plans_revealed',
  'prediction_scored',
  'reflection_recorded',
  'life_lost',
  'game_ended',
]);

/**
 * What other seats read off a seat (rules brief, "Tells"): the dominant emotion from exposure 4,
 * the whole vector from 8. Poker Face hides both; False Tell shows its chosen emotion instead.
 * `emotions` are the seat's unless given (the tell an emotion update is about to show).
 */
export function tellOf(state: GameState, p: PlayerState, emotions: EmotionVector = p.emotions): Tell {
  const r = state.rules;
  // One pass over the arena (every view and every event asks for every seat's tell): any Poker
  // Face masks the seat; else the first False Tell with a chosen emotion spoofs it.
  let spoof: EmotionName | null = null;
  for (const a of state.arena) {
    if (a.owner !== p.player_id) continue;
    const name = defOf(state, a.card_id).name;
    if (name === 'Poker Face') return { dominant: null, vector: null, masked: true };
    if (name === 'False Tell' && spoof === null && a.chosen_emotion) spoof = a.chosen_emotion;
  }
  if (p.exposure < r.tell_dominant_at) return { dominant: null, vector: null, masked: false };
  if (spoof) {
    // The shown vector is the real one with the chosen emotion on top, so it looks like a real tell.
    const top = Math.max(...EMOTIONS.map((k) => Math.abs(emotions[k])));
    const vector = p.exposure >= r.tell_vector_at ? { ...emotions, [spoof]: round4(Math.min(1, Math.max(r.effects.false_tell_shown, top + 0.1))) } : null;
    return { dominant: spoof, vector, masked: false };
  }
  return { dominant: dominantEmotion(emotions), vector: p.exposure >= r.tell_vector_at ? { ...emotions } : null, masked: false };
}
