import type { CardRef, PlayerPrivateState, WorldState } from '../protocol/index.js';
import { cardDef } from '../game/cards.js';

/**
 * What the win-probability model reads of a position, one row per seat still in the game. Two
 * forms: `public` reads the public table alone (what any spectator is sent), `omniscient` adds what
 * the seats' private views hold (hands, emotions). A row's numbers are raw counters; the model's
 * softmax over the seats makes only their differences matter.
 */
export type Form = 'public' | 'omniscient' | 'baseline';

/** Public counters and their interactions with how far the game has gone (a standing matters more near the cap). */
export const PUBLIC_FEATURES = [
  'lives',
  'resolve',
  'last_life',
  'resolve_on_last_life',
  'tempo',
  'exposure',
  'hand_count',
  'in_play',
  'attacks_in',
  'attacks_out',
  'locked_out',
  'leads',
  'lives_late',
  'resolve_late',
  'leads_late',
  'tempo_late',
  'shaken_tell',
] as const;

/** What only an all-seeing view adds: the seat's feelings and the attacks in its hand. */
export const OMNISCIENT_FEATURES = [...PUBLIC_FEATURES, 'tilt', 'fear', 'confidence', 'anger', 'shame', 'attack_cards', 'guard_cards'] as const;

/** The benchmark's baseline: a logistic model on lives and resolve alone. */
export const BASELINE_FEATURES = ['lives', 'resolve'] as const;

export const FEATURES: Record<Form, readonly string[]> = { public: PUBLIC_FEATURES, omniscient: OMNISCIENT_FEATURES, baseline: BASELINE_FEATURES };

export type SeatRows = { ids: string[]; rows: number[][] };

const SHAKEN = new Set(['fear', 'tilt', 'shame']);

/** Placement order among the living: lives, resolve, tempo (more is better), exposure (less). */
function leaderOf(world: WorldState): string | null {
  let best: WorldState['players'][number] | null = null;
  let tied = false;
  for (const p of world.players) {
    if (!p.alive) continue;
    const c = best ? p.lives - best.lives || p.resolve - best.resolve || p.tempo - best.tempo || best.exposure - p.exposure : 1;
    if (c > 0) {
      best = p;
      tied = false;
    } else if (c === 0) tied = true;
  }
  return best && !tied ? best.player_id : null;
}

function cardsOf(hand: readonly CardRef[]): { attack: number; guard: number } {
  let attack = 0;
  let guard = 0;
  for (const c of hand) {
    if (c.card_id === 'card_hidden') continue;
    const def = cardDef(c.name);
    if (def.attack) attack++;
    if (def.reactionOnly) guard++;
  }
  return { attack, guard };
}

/**
 * The rows of the seats still in, in table order. `privates` is read only for the omniscient form;
 * the public form never looks at it, so two states a spectator cannot tell apart give equal rows.
 *
 * @example seatRows(view.world, [], 'public') // { ids: ['plr_1', 'plr_3'], rows: [[3, 12, 0, …], …] }
 */
export function seatRows(world: WorldState, privates: readonly PlayerPrivateState[], form: Form): SeatRows {
  const cap = Number((world.rule_flags as { round_cap?: number }).round_cap ?? 30);
  const late = Math.min(1, Math.max(0, world.turn / Math.max(1, cap)));
  const lead = leaderOf(world);
  const ids: string[] = [];
  const rows: number[][] = [];
  for (const p of world.players) {
    if (!p.alive) continue;
    let attacksIn = 0;
    let attacksOut = 0;
    for (const s of world.stack) {
      if (s.target_player_id === null || s.target_player_id === s.player_id) continue;
      if (s.target_player_id === p.player_id) attacksIn++;
      if (s.player_id === p.player_id) attacksOut++;
    }
    const lastLife = p.lives === 1 ? 1 : 0;
    const leads = lead === p.player_id ? 1 : 0;
    const all: Record<string, number> = {
      lives: p.lives,
      resolve: p.resolve,
      last_life: lastLife,
      resolve_on_last_life: lastLife * p.resolve,
      tempo: p.tempo,
      exposure: p.exposure,
      hand_count: p.hand_count,
      in_play: p.arena_cards.length,
      attacks_in: attacksIn,
      attacks_out: attacksOut,
      locked_out: p.locked_out ? 1 : 0,
      leads,
      lives_late: p.lives * late,
      resolve_late: p.resolve * late,
      leads_late: leads * late,
      tempo_late: p.tempo * late,
      shaken_tell: p.tell.dominant && SHAKEN.has(p.tell.dominant) ? 1 : 0,
    };
    if (form === 'omniscient') {
      const me = privates.find((x) => x.player_id === p.player_id);
      const e = me?.emotion_state;
      const hand = cardsOf(me?.hand ?? []);
      Object.assign(all, { tilt: e?.tilt ?? 0, fear: e?.fear ?? 0, confidence: e?.confidence ?? 0, anger: e?.anger ?? 0, shame: e?.shame ?? 0, attack_cards: hand.attack, guard_cards: hand.guard });
    }
    ids.push(p.player_id);
    rows.push(FEATURES[form].map((f) => all[f]!));
  }
  return { ids, rows };
}
