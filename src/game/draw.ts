import type { StepContext } from './context.js';
import type { PlayerId } from './state.js';
import { cardRefOf } from './views-cards.js';

/** Draws from the top; an empty deck reshuffles the discard (seeded) and the draw goes on. */
export function drawCards(ctx: StepContext, id: PlayerId, count: number, reason: 'opening' | 'draw' | 'life_lost'): void {
  let left = count;
  while (left > 0) {
    const s = ctx.state;
    if (s.deck.length === 0) {
      if (s.discard.length === 0) return; // every card is in hands, arenas or on the stack
      const order = ctx.random().shuffle(s.discard);
      ctx.emit('deck_reshuffled', { count: order.length, order }, [{ key: 'order', to: [] }]);
    }
    const n = Math.min(left, ctx.state.deck.length);
    const cards = ctx.state.deck.slice(0, n);
    const card_refs = cards.map((c) => cardRefOf(ctx.state, c));
    ctx.emit('cards_drawn', { player_id: id, count: n, cards, card_refs, reason }, [
      { key: 'cards', to: [id] },
      { key: 'card_refs', to: [id] },
    ]);
    left -= n;
  }
}
