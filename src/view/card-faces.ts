import type { CardRef } from '../protocol/index.js';
import { cardLine } from '../game/card-text.js';

/** A card as the table draws it: a face with its name, type and one-line effect, or a back. */
export type CardFace = {
  /** Stable within one row (card ids are unique; backs are numbered). */
  key: string;
  back: boolean;
  name: string;
  type: string;
  /** The one-line effect (null on a back, or a card the catalog does not know). */
  line: string | null;
  /** The text alternative: what a screen reader says for the card. */
  label: string;
};

const HIDDEN = 'card_hidden';

/** A face-down card or a card in a hand the view does not hold. */
export const cardBack = (i: number, where = 'face-down card'): CardFace => ({ key: `back_${i}`, back: true, name: '', type: '', line: null, label: where });

/**
 * The face of a card as the view holds it; the projection's face-down placeholder becomes a back
 * (its name and type say nothing true: a False Tell is shown as a trap too).
 *
 * @example cardFace({ card_id: 'card_007', name: 'Feint', type: 'gambit', tags: [] }, 0).line // 'tempo 0 · 2 damage · …'
 */
export function cardFace(card: CardRef, i: number): CardFace {
  if (card.card_id === HIDDEN) return cardBack(i);
  const line = cardLine(card.name);
  return { key: card.card_id, back: false, name: card.name, type: card.type, line, label: `${card.name}, ${card.type}${line ? `: ${line}` : ''}` };
}
