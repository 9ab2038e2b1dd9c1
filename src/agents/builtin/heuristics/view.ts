import type { EmotionName, EmotionState, LegalAction, PlayerPublicState, TurnPlanRequest } from '../../../protocol/index.js';
import type { Rng } from '../../../game/rng.js';
import { RULES } from './rules.js';

export type PlayLegal = Extract<LegalAction, { kind: 'play_card' }>;
export type ActivateLegal = Extract<LegalAction, { kind: 'activate' }>;
export type CardLegal = PlayLegal | ActivateLegal;

/** What a decision reads off its request, gathered once (the seat's own view, nothing else). */
export type View = {
  readonly r: TurnPlanRequest;
  readonly id: string;
  readonly me: PlayerPublicState;
  readonly emo: EmotionState;
  /** Alive opponents in table order. */
  readonly opps: readonly PlayerPublicState[];
  readonly rng: Rng;
};

export function viewOf(r: TurnPlanRequest, rng: Rng): View {
  const players = r.public_world_view.players;
  let me = players[0]!;
  const opps: PlayerPublicState[] = [];
  for (const p of players) {
    if (p.player_id === r.player_id) me = p;
    else if (p.alive) opps.push(p);
  }
  return { r, id: r.player_id, me, emo: r.player_private_view.emotion_state, opps, rng };
}

export const opp = (v: View, id: string): PlayerPublicState | undefined => v.opps.find((p) => p.player_id === id);

/**
 * An opponent's emotion as its tell shows it: the vector when visible, a strong guess for the
 * dominant emotion, else null (unknown). A False Tell may be lying; that is the point of it.
 */
export function readEmotion(p: PlayerPublicState, e: EmotionName): number | null {
  const t = p.tell;
  if (t.vector) return t.vector[e];
  // Only the name of the dominant emotion shows: its size, not its sign, for the signed dimensions.
  if (t.dominant === e) return e === 'dominance' || e === 'valence' || e === 'confidence' ? null : 0.5;
  return t.dominant ? 0 : null;
}

/** Face-down cards an owner has in the arena: traps, or a False Tell. */
export function faceDown(v: View, owner: string): number {
  let n = 0;
  for (const a of v.r.public_world_view.arena.cards) if (a.owner_player_id === owner && a.face_down) n++;
  return n;
}

/** Own traps in the arena (a False Tell also lies face down, but it is a mask). */
export function ownTraps(v: View): number {
  let n = 0;
  for (const a of v.r.public_world_view.arena.cards) if (a.owner_player_id === v.id && a.card.type === 'trap') n++;
  return n;
}

/** Own arena cards with a name (owners see their own face-down cards). */
export function ownArena(v: View, name?: string): number {
  let n = 0;
  for (const a of v.r.public_world_view.arena.cards) if (a.owner_player_id === v.id && (!name || a.card.name === name)) n++;
  return n;
}

/** Whether an opponent shows a card of this name face up in its arena. */
export const showsCard = (v: View, owner: string, name: string): boolean =>
  v.r.public_world_view.arena.cards.some((a) => a.owner_player_id === owner && !a.face_down && a.card.name === name);

/** Our own action already on this round's stack: a trap we played resolves before our later attack. */
export const pendingTrap = (v: View): boolean =>
  v.r.public_world_view.stack.some((e) => e.player_id === v.id && e.kind === 'play_card' && e.card?.type === 'trap');

/** A seat's standing for placement: lives first, then resolve. */
export const standing = (p: PlayerPublicState): number => p.lives * RULES.resolve_baseline + Math.max(0, p.resolve);

/** Weighted pick over a small record; keys with weight ≤ 0 are skipped. */
export function weighted<K extends string>(rng: Rng, weights: Readonly<Partial<Record<K, number>>>): K | null {
  let total = 0;
  for (const k in weights) total += Math.max(0, weights[k] ?? 0);
  if (total <= 0) return null;
  let x = rng.next() * total;
  let last: K | null = null;
  for (const k in weights) {
    const w = Math.max(0, weights[k] ?? 0);
    if (w <= 0) continue;
    last = k;
    x -= w;
    if (x < 0) return k;
  }
  return last;
}

export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[rng.int(xs.length)]!;

/** How talk names a seat: its display name, with its id when another seat shares that name. */
export function nameOf(v: View, id: string): string {
  const players = v.r.public_world_view.players;
  const name = players.find((p) => p.player_id === id)?.display_name ?? id;
  return players.some((p) => p.player_id !== id && p.display_name === name) ? `${name} (${id})` : name;
}
