import type { CardMove } from '../protocol/index.js';
import { defOf } from './cards.js';
import { player } from './players.js';
import { stackHoldsCard, type GameState } from './state.js';

/** Removes a card from the zone a move names; the card must be there. */
function take(state: GameState, zone: CardMove['from'], cardId: string): void {
  if (zone === 'stack') return; // stack entries are removed with their action
  const list = zoneList(state, zone);
  if (zone.startsWith('arena:')) {
    const i = state.arena.findIndex((a) => a.card_id === cardId);
    if (i < 0) throw new Error(`card ${cardId} not in ${zone}`);
    state.arena.splice(i, 1);
    return;
  }
  const i = list!.indexOf(cardId);
  if (i < 0) throw new Error(`card ${cardId} not in ${zone}`);
  list!.splice(i, 1);
}

function zoneList(state: GameState, zone: CardMove['from']): string[] | null {
  if (zone === 'deck') return state.deck;
  if (zone === 'discard') return state.discard;
  if (zone.startsWith('hand:')) return player(state, zone.slice(5)).hand;
  return null;
}

/** Applies one card move (used by evolve only). */
export function moveCard(state: GameState, move: CardMove): void {
  if (move.from === move.to && move.arena) {
    // A clock change in place (hastening): the card keeps its position in the arena.
    const a = state.arena.find((x) => x.card_id === move.card_id);
    if (!a) throw new Error(`card ${move.card_id} not in ${move.from}`);
    a.rounds_left = move.arena.rounds_left;
    a.countdown = move.arena.countdown;
    return;
  }
  take(state, move.from, move.card_id);
  const to = move.to;
  if (to === 'stack') throw new Error('cards enter the stack with their action');
  if (to.startsWith('arena:')) {
    const def = defOf(state, move.card_id);
    state.arena.push({
      card_id: move.card_id,
      owner: to.slice(6),
      face_down: move.arena?.face_down ?? def.faceDown,
      rounds_left: move.arena ? move.arena.rounds_left : def.rounds,
      countdown: move.arena ? move.arena.countdown : def.countdown,
      chosen_emotion: move.arena?.chosen_emotion ?? null,
    });
    return;
  }
  zoneList(state, to)!.push(move.card_id);
}

/** Every card id, wherever it is: the 120-card invariant counts these. */
export function allCardLocations(state: GameState): string[] {
  const out = [...state.deck, ...state.discard];
  for (const p of state.players) out.push(...p.hand);
  for (const a of state.arena) out.push(a.card_id);
  for (const s of state.stack) {
    if (stackHoldsCard(s)) out.push(s.card_id);
    if (s.reaction_card_id) out.push(s.reaction_card_id);
  }
  return out;
}

/** evolve's half of upkeep for face-down cards: their clocks tick without appearing in the log. */
export function tickFaceDown(state: GameState): void {
  for (const a of state.arena) if (a.face_down && a.rounds_left !== null) a.rounds_left -= 1;
}
