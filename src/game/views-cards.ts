import type { CardRef } from '../protocol/index.js';
import type { CardDef } from './cards.js';
import { cardDef } from './cards.js';
import type { GameState } from './state.js';

/** A card as the protocol names it. */
export const cardRef = (cardId: string, def: CardDef): CardRef => ({
  card_id: cardId,
  name: def.name,
  type: def.type,
  tags: [...def.tags],
});

export const cardRefOf = (state: GameState, cardId: string): CardRef => cardRef(cardId, cardDef(state.cards[cardId] ?? ''));

/** What everyone but the owner sees of a face-down card. */
export const HIDDEN_CARD: CardRef = { card_id: 'card_hidden', name: 'Face-down card', type: 'trap', tags: ['face_down'] };
