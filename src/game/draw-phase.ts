import type { StepContext } from './context.js';
import { drawCards } from './draw.js';
import { aliveInInitiative, player } from './players.js';
import { cardRefOf } from './views-cards.js';

/** Draw: each alive seat draws its cards, then sheds the oldest beyond the hand cap. */
export function runDraw(ctx: StepContext): void {
  const s = ctx.state;
  for (const id of aliveInInitiative(s)) drawCards(ctx, id, s.rules.draw_per_round, 'draw');
  for (const id of aliveInInitiative(s)) {
    const hand = player(s, id).hand;
    const excess = hand.length - s.rules.hand_cap;
    if (excess > 0) {
      ctx.emit('cards_discarded', { player_id: id, cards: hand.slice(0, excess).map((c) => cardRefOf(s, c)), reason: 'hand_cap' });
    }
  }
}
