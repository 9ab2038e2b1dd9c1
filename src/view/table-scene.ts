import type { GameEvent, ManipulationOutcome, Tell } from '../protocol/index.js';
import type { StateView } from '../game/views.js';
import { attackList, type AttackRow } from './attacks.js';
import { cardBack, cardFace, type CardFace } from './card-faces.js';
import { speechFeed } from './speech.js';

/** The emotions a seat's meters show, in this order (the four that drive play, and tilt). */
export const METER_EMOTIONS = ['fear', 'anger', 'shame', 'tilt', 'confidence'] as const;
export type MeterEmotion = (typeof METER_EMOTIONS)[number];

/** One meter: an emotion's level in [-1, 1]. */
export type Meter = { emotion: MeterEmotion; value: number };

export type SeatScene = {
  player_id: string;
  name: string;
  /** Where the seat sits, in percent of the table's box (seats on an ellipse, the first on top, clockwise). */
  at: { x: number; y: number };
  /** Its hand: faces where the view holds the hand, else one back per card. */
  hand: CardFace[];
  hand_held: boolean;
  arena: CardFace[];
  /** The meters, where the view holds the seat's emotions (`private`) or its tell shows the vector (`tell`); else null. */
  meters: Meter[] | null;
  meters_from: 'private' | 'tell' | null;
  /** The tell in words (what every view reads off the seat). */
  tell: string;
};

/** An attack on the table now: attacker → target with its card, plan and outcome, as far as the view sees them. */
export type Arrow = {
  action_id: string;
  from: string;
  to: string;
  card: CardFace | null;
  reaction: CardFace | null;
  /** The manipulation plan and emotional intent (null while hidden from this view). */
  plan: { manipulation_plan: string; emotional_intent: string } | null;
  outcome: 'pending' | ManipulationOutcome | 'resolved';
};

/** Speech at the table this round: a bubble at the speaker, or a sealed note at the listener. */
export type Bubble = {
  seq: number;
  speaker: string;
  /** The seat it is drawn at: the speaker for public lines, the listener for private ones. */
  at: string;
  private: boolean;
  /** Null on a note the view may not open. Untrusted: render as text only. */
  text: string | null;
};

/** A directed relation between two seats, where the view holds `from`'s emotions. */
export type Link = { from: string; to: string; kind: 'trust' | 'grievance'; value: number };

export type TableScene = { seats: SeatScene[]; arrows: Arrow[]; bubbles: Bubble[]; links: Link[] };

/** Lines weaker than this are left out: a table crossed by 30 hairlines reads as nothing. */
const LINK_MIN = 0.1;

/**
 * Where seat i of n sits, in percent of the table's box: on an ellipse, the first at the top,
 * clockwise. The radii leave room for the seat boxes, which are centred on these points.
 *
 * @example seatPoint(0, 4) // { x: 50, y: 14 }
 */
export function seatPoint(i: number, n: number): { x: number; y: number } {
  const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n);
  const r = (v: number) => Math.round(v * 100) / 100;
  return { x: r(50 + 35 * Math.cos(a)), y: r(50 + 36 * Math.sin(a)) };
}

const tellText = (t: Tell): string => (t.masked ? 'tell masked' : t.dominant ? `tell: ${t.dominant}` : 'tell: calm');

function arrowOf(row: AttackRow | undefined, fallback: { action_id: string; from: string; to: string; card: CardFace | null; reaction: CardFace | null }): Arrow {
  const plan = row?.plan ? { manipulation_plan: row.plan.manipulation_plan, emotional_intent: row.plan.emotional_intent } : null;
  const res = row?.resolution;
  return { ...fallback, plan, outcome: !res ? 'pending' : (res.outcome ?? 'resolved') };
}

/**
 * What the table draws at a position: each seat's cards, meters and tell, the attacks in flight,
 * this round's speech and the trust and grievance lines, all from the view at the cursor and the
 * projected events up to it. It shows only what the view holds: a hand, emotions or a private line
 * the projection left out is drawn as backs, a tell or a sealed note — it never asks for more.
 *
 * Attacks shown: every targeted action on the stack, and the attack resolved last if nothing has
 * happened since but its aftermath (no new action, no new phase). `end` cuts `events` at the
 * position without copying (events[0..end) are the ones up to it); only the current round's are read.
 *
 * @example tableScene(timeline.stateAt(seq), timeline.slice(0, seq)).arrows[0]?.plan?.manipulation_plan
 */
export function tableScene(view: StateView, all: readonly GameEvent[], end = all.length): TableScene {
  const w = view.world;
  // Attacks and talk never outlive their round: reading only this round keeps a seek O(round).
  let start = Math.min(end, all.length);
  while (start > 0 && all[start - 1]!.turn >= w.turn) start--;
  const events = all.slice(start, end);
  const priv = new Map(view.private.map((p) => [p.player_id, p]));
  const seats = w.players.map((p, i): SeatScene => {
    const mine = priv.get(p.player_id);
    const vector = mine?.emotion_state ?? p.tell.vector;
    return {
      player_id: p.player_id,
      name: p.display_name,
      at: seatPoint(i, w.players.length),
      hand: mine ? mine.hand.map(cardFace) : Array.from({ length: p.hand_count }, (_, k) => cardBack(k, 'card in hand')),
      hand_held: Boolean(mine),
      arena: p.arena_cards.map(cardFace),
      meters: vector ? METER_EMOTIONS.map((emotion) => ({ emotion, value: vector[emotion] })) : null,
      meters_from: mine ? 'private' : p.tell.vector ? 'tell' : null,
      tell: tellText(p.tell),
    };
  });

  const rows = attackList(events);
  const byId = new Map(rows.map((r) => [r.action_id, r]));
  const arrows: Arrow[] = [];
  for (const s of w.stack) {
    if (!s.target_player_id) continue;
    arrows.push(arrowOf(byId.get(s.action_id), { action_id: s.action_id, from: s.player_id, to: s.target_player_id, card: s.card ? cardFace(s.card, 0) : cardBack(0), reaction: s.reaction_card ? cardFace(s.reaction_card, 1) : null }));
  }
  const last = lastResolvedAttack(events, rows);
  if (last && !arrows.some((a) => a.action_id === last.action_id)) {
    arrows.push(arrowOf(last, { action_id: last.action_id, from: last.actor, to: last.target, card: last.card ? cardFace(last.card, 0) : null, reaction: last.reaction_card ? cardFace(last.reaction_card, 1) : null }));
  }

  return { seats, arrows, bubbles: bubblesOf(events, w.turn), links: linksOf(view) };
}

/** The attack resolved last, while the table is still in its aftermath (no action or phase since). */
function lastResolvedAttack(events: readonly GameEvent[], rows: AttackRow[]): AttackRow | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'phase_changed' || e.type === 'action_submitted') return null;
    if (e.type === 'action_resolved') return rows.find((r) => r.action_id === e.payload.action_id && r.resolution?.seq === e.seq) ?? null;
  }
  return null;
}

/** This round's speech: each speaker's newest public line, and each listener's newest private note. */
function bubblesOf(events: readonly GameEvent[], turn: number): Bubble[] {
  const said = new Map<string, Bubble>();
  for (const l of speechFeed(events)) {
    if (l.turn !== turn) continue;
    const priv = l.channel === 'private' && l.target !== null;
    const at = priv ? l.target! : l.speaker;
    said.set(`${priv ? 'note' : 'say'}:${at}`, { seq: l.seq, speaker: l.speaker, at, private: priv, text: l.text });
  }
  return [...said.values()].sort((a, b) => a.seq - b.seq);
}

function linksOf(view: StateView): Link[] {
  const out: Link[] = [];
  for (const p of view.private) {
    const e = p.emotion_state;
    for (const [to, value] of Object.entries(e.trust)) if (to !== p.player_id && Math.abs(value) >= LINK_MIN) out.push({ from: p.player_id, to, kind: 'trust', value });
    for (const [to, value] of Object.entries(e.grievance)) if (to !== p.player_id && value >= LINK_MIN) out.push({ from: p.player_id, to, kind: 'grievance', value });
  }
  return out;
}
