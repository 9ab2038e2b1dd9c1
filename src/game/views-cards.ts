import type { CardRef } from '../protocol/index.js';
import type { CardDef } from './cards.js';
import { defOf } from './cards.js';
import type { GameState } from './state.js';

/** A card as the protocol names it. */
export const cardRef = (cardId: string, def: CardDef): CardRef => ({
  card_id: cardId,
  name: def.name,
  type: def.type,
  tags: [...def.tags],
});

/**
 * Views name the same 120 cards over and over; each game's refs are built once and frozen, so
 * sharing them between views and events is safe and saves most of a request's allocations.
 */
const refCache = new WeakMap<Record<string, string>, Map<string, CardRef>>();

/** The last game's refs: a view asks for dozens of one game's cards in a row (its discard alone). */
let lastCards: Record<string, string> | null = null;
let lastRefs: Map<string, CardRef> | null = null;

export function cardRefOf(state: GameState, cardId: string): CardRef {
  let refs = state.cards === lastCards ? lastRefs : refCache.get(state.cards);
  if (!refs) {
    refs = new Map();
    refCache.set(state.cards, refs);
  }
  lastCards = state.cards;
  lastRefs = refs;
  let ref = refs.get(cardId);
  if (!ref) {
    const r = cardRef(cardId, defOf(state, cardId));
    Object.freeze(r.tags);
    ref = Object.freeze(r);
    refs.set(cardId, ref);
  }
  return ref;
}

/**
 * The discard pile as refs. Every view at every decision lists the whole pile (up to a hundred
 * cards) while it changes a few times a round, so the list is kept per pile and handed out again,
 * frozen, while the pile holds the same cards (checked card by card: cheaper than one lookup each).
 */
const pileCache = new WeakMap<readonly string[], { ids: string[]; refs: readonly CardRef[] }>();

export function discardRefs(state: GameState): CardRef[] {
  const pile = state.discard;
  const hit = pileCache.get(pile);
  if (hit && hit.ids.length === pile.length && hit.ids.every((id, i) => id === pile[i])) return hit.refs as CardRef[];
  const refs = new Array<CardRef>(pile.length);
  for (let i = 0; i < pile.length; i++) refs[i] = cardRefOf(state, pile[i]!);
  pileCache.set(pile, { ids: pile.slice(), refs: Object.freeze(refs) });
  return refs;
}

/** What everyone but the owner sees of a face-down card. */
export const HIDDEN_CARD: CardRef = Object.freeze({ card_id: 'card_hidden', name: 'Face-down card', type: 'trap', tags: Object.freeze(['face_down']) as string[] });
