import type { CardMove, CardRef, GameEvent, Tell } from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { defOf } from './cards.js';
import type { CardId, GameState, PlayerId } from './state.js';
import { cardRefOf } from './views-cards.js';

/** The public card moves of an event, in the order evolve applies them. */
function publicMoves(event: GameEvent): CardMove[] {
  switch (event.type) {
    case 'upkeep_applied':
      return event.payload.card_moves;
    case 'ritual_fired':
    case 'action_resolved':
    case 'ledger_settled':
      return event.payload.tactical_effect.card_moves;
    default:
      return [];
  }
}

/**
 * What a view needs to follow an event's public card moves without the card map: the faces of
 * cards that land face up in public (the discard, a face-up arena slot: on the table for all to see
 * from then on) and, for cards leaving an arena, their index there (a face-down card shows no id,
 * so its position is the only way to tell which one left). Run before evolve applies the event,
 * simulating the arena's order move by move. Sets them on the event (`faces`, then `slots`) when
 * there are any.
 */
export function addMovedCards(state: GameState, event: GameEvent): void {
  const moves = publicMoves(event);
  if (moves.length === 0) return;
  // Lists, not maps keyed by card id: a map of ids to names looks (to leak checks, and to people) like the secret card map.
  const faces: CardRef[] = [];
  const slots: { card_id: CardId; slot: number }[] = [];
  const arena = state.arena.map((a) => a.card_id);
  for (const m of moves) {
    if (m.from.startsWith('arena:')) {
      const i = arena.indexOf(m.card_id);
      if (i >= 0) {
        slots.push({ card_id: m.card_id, slot: i });
        if (m.from !== m.to) arena.splice(i, 1);
      }
    }
    if (m.to.startsWith('arena:') && m.from !== m.to) arena.push(m.card_id);
    const faceUp = m.to === 'discard' || (m.to.startsWith('arena:') && !(m.arena?.face_down ?? defOf(state, m.card_id).faceDown));
    if (faceUp) faces.push(cardRefOf(state, m.card_id));
  }
  if (faces.length) event.faces = faces;
  if (slots.length) event.slots = slots;
}

const sameTell = (a: Tell | undefined, b: Tell): boolean =>
  a !== undefined &&
  a.dominant === b.dominant &&
  a.masked === b.masked &&
  (a.vector === null || b.vector === null ? a.vector === b.vector : EMOTIONS.every((k) => a.vector![k] === b.vector![k]));

/** The tells in `after` that differ from `before` (null when none did). */
export function changedTells(before: ReadonlyMap<PlayerId, Tell>, after: ReadonlyMap<PlayerId, Tell>): Record<PlayerId, Tell> | null {
  let out: Record<PlayerId, Tell> | null = null;
  for (const [id, t] of after) if (!sameTell(before.get(id), t)) (out ??= {})[id] = t;
  return out;
}
