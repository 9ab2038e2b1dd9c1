import type { ArenaCard, CardMove, CardRef, GameEvent, PlayerPrivateState, PlayerPublicState, TacticalEffect, WorldState } from '../protocol/index.js';
import { cardDef } from '../game/cards.js';
import { HIDDEN_CARD } from '../game/views-cards.js';

/**
 * A projected state being folded (a private copy the reducer may change): the world, the private
 * views it holds, and who is looking (`all`: every secret; `seat`: the seat it plays, if any).
 */
export type Draft = {
  world: WorldState;
  private: PlayerPrivateState[];
  all: boolean;
  seat: string | null;
};

export const pub = (d: Draft, id: string): PlayerPublicState => {
  const p = d.world.players.find((x) => x.player_id === id);
  if (!p) throw new Error(`view has no player ${id}`);
  return p;
};
export const priv = (d: Draft, id: string): PlayerPrivateState | undefined => d.private.find((x) => x.player_id === id);

const cap = (flags: Record<string, unknown>, key: string): number => {
  const v = flags[key];
  if (typeof v !== 'number') throw new Error(`view's rule_flags lack ${key}`);
  return v;
};
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x));

export const addTempo = (d: Draft, id: string, by: number): void => {
  const p = pub(d, id);
  p.tempo = clamp(p.tempo + by, 0, cap(d.world.rule_flags, 'tempo_cap'));
};
export const addExposure = (d: Draft, id: string, by: number): void => {
  const p = pub(d, id);
  p.exposure = clamp(p.exposure + by, 0, cap(d.world.rule_flags, 'exposure_cap'));
};

/** Whether this viewer sees an arena card's face and clocks. */
const seesFace = (d: Draft, owner: string, faceDown: boolean) => !faceDown || d.all || d.seat === owner;

/** The ref of a card this view can name: in a hand it holds, on the stack, in the arena or the discard. */
function knownRef(d: Draft, cardId: string): CardRef | null {
  for (const p of d.private) for (const c of p.hand) if (c.card_id === cardId) return c;
  for (const s of d.world.stack) {
    if (s.card?.card_id === cardId) return s.card;
    if (s.reaction_card?.card_id === cardId) return s.reaction_card;
  }
  for (const a of d.world.arena.cards) if (a.card.card_id === cardId) return a.card;
  return null;
}

function arenaIndex(d: Draft, move: CardMove, e: GameEvent): number {
  const cards = d.world.arena.cards;
  const i = cards.findIndex((a) => a.card.card_id === move.card_id);
  if (i >= 0) return i;
  // A face-down card this view cannot name: the move says where it lay.
  const slot = e.slots?.find((s) => s.card_id === move.card_id)?.slot;
  if (slot !== undefined && cards[slot]?.card.card_id === HIDDEN_CARD.card_id) return slot;
  throw new Error(`view cannot find ${move.card_id} in the arena`);
}

export function removeFromHand(d: Draft, owner: string, cardId: string | null): CardRef | null {
  pub(d, owner).hand_count -= 1;
  const hand = priv(d, owner)?.hand;
  if (!hand || cardId === null) return null;
  const i = hand.findIndex((c) => c.card_id === cardId);
  if (i < 0) throw new Error(`view: ${cardId} not in ${owner}'s hand`);
  return hand.splice(i, 1)[0]!;
}

/** Pushes an arena entry as this viewer sees it. */
export function enterArena(d: Draft, owner: string, ref: CardRef | null, clocks: NonNullable<CardMove['arena']> | null): void {
  const def = ref ? cardDef(ref.name) : null;
  const faceDown = clocks?.face_down ?? def?.faceDown ?? true;
  const entry: ArenaCard = seesFace(d, owner, faceDown)
    ? {
        card: ref ?? fail(`view cannot name a card entering ${owner}'s arena`),
        owner_player_id: owner,
        face_down: faceDown,
        rounds_left: clocks ? clocks.rounds_left : (def?.rounds ?? null),
        countdown: clocks ? clocks.countdown : (def?.countdown ?? null),
        chosen_emotion: clocks?.chosen_emotion ?? null,
      }
    : { card: HIDDEN_CARD, owner_player_id: owner, face_down: true, rounds_left: null, countdown: null, chosen_emotion: null };
  d.world.arena.cards.push(entry);
}

const fail = (why: string): never => {
  throw new Error(why);
};

/** One card move, as the engine's moveCard does it, on what this view holds. */
export function moveCard(d: Draft, m: CardMove, e: GameEvent): void {
  if (m.from === m.to && m.arena) {
    const a = d.world.arena.cards[arenaIndex(d, m, e)]!;
    if (a.card.card_id !== HIDDEN_CARD.card_id) {
      a.rounds_left = m.arena.rounds_left;
      a.countdown = m.arena.countdown;
    }
    return;
  }
  let ref: CardRef | null = e.faces?.find((c) => c.card_id === m.card_id) ?? knownRef(d, m.card_id);
  if (m.from.startsWith('hand:')) ref = removeFromHand(d, m.from.slice(5), m.card_id) ?? ref;
  else if (m.from.startsWith('arena:')) d.world.arena.cards.splice(arenaIndex(d, m, e), 1);
  else if (m.from === 'discard') d.world.discard.splice(d.world.discard.findIndex((c) => c.card_id === m.card_id), 1);
  else if (m.from === 'deck') d.world.arena.deck_count -= 1;
  const to = m.to;
  if (to === 'discard') d.world.discard.push(ref ?? fail(`view cannot name ${m.card_id} entering the discard`));
  else if (to === 'deck') d.world.arena.deck_count += 1;
  else if (to.startsWith('arena:')) enterArena(d, to.slice(6), ref, m.arena ?? null);
  else if (to.startsWith('hand:')) {
    pub(d, to.slice(5)).hand_count += 1;
    const hand = priv(d, to.slice(5))?.hand;
    if (hand) hand.push(ref ?? fail(`view cannot name ${m.card_id} entering a hand`));
  }
}

/** A tactical effect's public half: counters within their ranges, then card moves. Next-round statuses are not in views. */
export function applyTactical(d: Draft, t: TacticalEffect, e: GameEvent): void {
  for (const [id, x] of Object.entries(t.resolve_delta)) pub(d, id).resolve += x;
  for (const [id, x] of Object.entries(t.tempo_delta)) addTempo(d, id, x);
  for (const [id, x] of Object.entries(t.exposure_delta)) addExposure(d, id, x);
  for (const m of t.card_moves) moveCard(d, m, e);
}
