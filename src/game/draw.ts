import type { StepContext } from './context.js';
import type { PlayerId } from './state.js';

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
    ctx.emit('cards_drawn', { player_id: id, count: n, cards, reason }, [{ key: 'cards', to: [id] }]);
    left -= n;
  }
}
