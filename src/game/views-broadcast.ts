import type { EventType, GameEvent } from '../protocol/index.js';

/**
 * Payload keys that tell what is still to come: the seed and the card map (with the rules they
 * replay every deal), the deck's order and a reshuffle's new order. No seat is ever shown them
 * (their audience lists are empty), and the broadcast projection drops them with the PRNG state.
 */
export const FUTURE_KEYS: Partial<Record<EventType, readonly string[]>> = {
  game_started: ['seed', 'cards', 'deck'],
  deck_reshuffled: ['order'],
  hidden_reseeded: ['order'],
};

/**
 * An event as a broadcast audience sees it: everything an admin sees of the seats (hands, secret
 * plans, private speech with its speech act, emotions, trust, grievance, contests), minus what
 * reveals the future: the PRNG state (`rng`) and FUTURE_KEYS, listed under `redacted`. Shown only
 * behind the hold-back (src/live/hold-back.ts), never live.
 *
 * @example broadcastEvent(gameStarted).payload.deck // undefined; .redacted // ['seed', 'cards', 'deck']
 */
export function broadcastEvent(event: GameEvent): GameEvent {
  const drop = (FUTURE_KEYS[event.type] ?? []).filter((k) => k in event.payload);
  if (drop.length === 0 && event.rng === undefined) return event;
  const payload: Record<string, unknown> = { ...event.payload };
  for (const k of drop) delete payload[k];
  const { rng: _rng, ...rest } = event;
  return { ...rest, payload, ...(drop.length ? { redacted: drop } : {}) } as GameEvent;
}
