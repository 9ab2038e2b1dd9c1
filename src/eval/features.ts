import type { CardRef, PlayerPrivateState, WorldState } from '../protocol/index.js';
import { cardDef } from '../game/cards.js';

/**
 * What the win-probability model reads of a position, one row per seat still in the game. Two
 * forms: `public` reads the public table alone (what any spectator is sent), `omniscient` adds what
 * the seats' private views hold (hands, emotions). A row's numbers are raw counters; the model's
 * softmax over the seats makes only their differences matter.
 */
export type Form = 'public' | 'omniscient' | 'baseline';

/**
 * Public counters and their interactions with how far the game has gone (a standing matters more
 * near the cap). Lives and resolve enter as one `health`: resolve-equivalents left, with a life
 * that is already lost (resolve at or below 0 loses one at the end of the round) counted as lost,
 * so the `life_lost` event itself moves no chance: the blow that caused it did.
 */
export const PUBLIC_FEATURES = [
  'health',
  'health_share',
  'health_late',
  'last_life',
  'going_out',
  'tempo',
  'exposure',
  'hand_count',
  'in_play',
  'attacks_in',
  'attacks_out',
  'damage_in',
  'damage_out',
  'affect_in',
  'locked_out',
  'leads',
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

/**
 * The default rules' resolve at the start and after a lost life. The public table does not show a
 * game's own values; the model is trained under the defaults, so these are what its weights mean.
 */
const RESOLVE_BASELINE = 12;
const RESOLVE_AFTER_LIFE_LOST = 8;

/** Lives left once a pending loss (resolve ≤ 0) is taken, and the resolve-equivalents they hold. */
export function healthOf(p: { lives: number; resolve: number }): { lives: number; health: number } {
  if (p.resolve > 0) return { lives: p.lives, health: (p.lives - 1) * RESOLVE_BASELINE + p.resolve };
  const lives = p.lives - 1;
  return { lives, health: lives > 0 ? (lives - 1) * RESOLVE_BASELINE + RESOLVE_AFTER_LIFE_LOST : 0 };
}

/**
 * The seat alone on top by health (a life already lost counted as lost), then tempo (more is
 * better), then exposure (less); null on a tie.
 */
function leaderOf(world: WorldState): string | null {
  let best: { id: string; health: number; tempo: number; exposure: number } | null = null;
  let tied = false;
  for (const p of world.players) {
    if (!p.alive) continue;
    const me = { id: p.player_id, health: healthOf(p).health, tempo: p.tempo, exposure: p.exposure };
    const c = best ? me.health - best.health || me.tempo - best.tempo || best.exposure - me.exposure : 1;
    if (c > 0) {
      best = me;
      tied = false;
    } else if (c === 0) tied = true;
  }
  return best && !tied ? best.id : null;
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
  const alive = world.players.filter((p) => p.alive);
  const healths = new Map(alive.map((p) => [p.player_id, healthOf(p)]));
  let total = 0;
  for (const h of healths.values()) total += h.health;
  for (const p of alive) {
    // Attacks waiting on the stack, and what their cards (where this view shows them) will do:
    // a choice is valued when it is made, so its resolution moves a chance only by its luck.
    let attacksIn = 0;
    let attacksOut = 0;
    let damageIn = 0;
    let damageOut = 0;
    let affectIn = 0;
    for (const s of world.stack) {
      if (s.target_player_id === null || s.target_player_id === s.player_id) continue;
      const def = s.card && s.card.card_id !== 'card_hidden' ? cardDef(s.card.name) : null;
      if (s.target_player_id === p.player_id) {
        attacksIn++;
        damageIn += def?.damage ?? 0;
        affectIn += def?.affect ?? 0;
      }
      if (s.player_id === p.player_id) {
        attacksOut++;
        damageOut += def?.damage ?? 0;
      }
    }
    const h = healths.get(p.player_id)!;
    const leads = lead === p.player_id ? 1 : 0;
    const all: Record<string, number> = {
      lives: p.lives,
      resolve: p.resolve,
      health: h.health / RESOLVE_BASELINE,
      health_share: total > 0 ? h.health / total : 0,
      health_late: (h.health / RESOLVE_BASELINE) * late,
      last_life: h.lives === 1 ? 1 : 0,
      going_out: h.lives === 0 ? 1 : 0,
      tempo: p.tempo,
      exposure: p.exposure,
      hand_count: p.hand_count,
      in_play: p.arena_cards.length,
      attacks_in: attacksIn,
      attacks_out: attacksOut,
      damage_in: damageIn,
      damage_out: damageOut,
      affect_in: affectIn,
      locked_out: p.locked_out ? 1 : 0,
      leads,
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
