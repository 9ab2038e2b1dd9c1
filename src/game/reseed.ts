import type { GameEvent } from '../protocol/index.js';
import { StepContext } from './context.js';
import { seedRng } from './rng.js';
import type { GameState } from './state.js';

/**
 * Reseeds everything hidden in a running game, for a fork at its fork point: the undrawn deck
 * (the only cards no seat has seen: hands, arenas, the stack and the discard keep every card
 * where it is) is shuffled again and the PRNG replaced, both from `secret` alone, so whoever knows
 * the parent's seed learns nothing of the draws to come. One `hidden_reseeded` event, applied to
 * `state` in place like stepInPlace (its `order` is shown to no seat; its `rng` to admins only),
 * at the state's own ts: deterministic given the state and the secret. The secret comes from the
 * caller (a CSPRNG at the edge, or a researcher's choice), never from here.
 *
 * @example const [e] = reseedHidden(state, 6112730987011337) // e.type === 'hidden_reseeded'
 */
export function reseedHidden(state: GameState, secret: number): GameEvent[] {
  if (state.status !== 'running') throw new Error(`cannot reseed a game that is ${state.status === 'done' ? 'over' : 'not started'}`);
  if (!Number.isSafeInteger(secret)) throw new Error(`a reseed secret must be a safe integer, not ${secret}`);
  const ctx = new StepContext(state, state.ts);
  // Prefixed so that a secret equal to some game's seed does not replay that game's deal.
  const order = ctx.reseedRandom(seedRng(`hidden:${secret}`)).shuffle(state.deck);
  ctx.emit('hidden_reseeded', { count: order.length, order }, [{ key: 'order', to: [] }]);
  return ctx.events;
}
