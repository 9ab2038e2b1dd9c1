import type { CardType, GameEvent } from '../protocol/index.js';
import { cardDef } from '../game/index.js';

/**
 * The card type a play or reaction event shows, or null (a pass, an activation, a reaction
 * without a card). Face-down plays carry no card ref; the full event's action still names the card,
 * found through the deal's card map (`game_started.cards`). A projected log (a researcher's,
 * mid-game) has neither for them: they go uncounted.
 */
export function playedCardType(e: GameEvent, cards: Readonly<Record<string, string>>): CardType | null {
  if (e.type === 'reaction_submitted') return e.payload.card?.type ?? null;
  if (e.type !== 'action_submitted' || e.payload.kind !== 'play_card') return null;
  const id = e.payload.action?.payload.card_id;
  const name = id ? cards[id] : undefined;
  return e.payload.card?.type ?? (name ? cardDef(name).type : null);
}
