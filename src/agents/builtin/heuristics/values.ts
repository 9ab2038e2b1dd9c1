import type { Personality } from './personality.js';
import { RULES } from './rules.js';
import { ownArena, ownTraps, type CardLegal, type View } from './view.js';
import { afraid, calm } from './moods.js';

/** What a fearful seat adds to guards and masks: enough to play them before anything else. */
const FEAR_PULL = 20;
/** ...unless the same card already stands in its arena (they do not stack). */
const FEAR_PULL_REDUNDANT = 2;

/** A seat's deficit below the resolve baseline (Rebuild's worth). */
const deficit = (v: View) => Math.max(0, RULES.resolve_baseline - v.me.resolve);

/**
 * The worth of a non-attack play: guards and masks (more under fear, Poker Face more when exposed),
 * traps (less with each one already down), rituals (Slow Burn hits every opponent; Rebuild heals),
 * and activations (hastening a ritual). Null when the option is not worth considering at all.
 */
export function evalSupport(v: View, pers: Personality, legal: CardLegal): number | null {
  const shaken = afraid(v.emo);
  const fear = shaken ? (ownArena(v, legal.name) ? FEAR_PULL_REDUNDANT : FEAR_PULL) : 0;
  // A calm seat sees less need to hide or brace: guards and masks lose part of their pull.
  const ease = calm(v.emo) ? 0.5 : 1;
  const e = v.me.exposure;
  if (legal.kind === 'activate') {
    if (legal.type !== 'ritual') return null;
    const countdown = v.r.public_world_view.arena.cards.find((a) => a.card.card_id === legal.card_id)?.countdown ?? 0;
    const base = legal.name === 'Slow Burn' ? 0.28 * -RULES.effects.slow_burn_resolve * v.opps.length : 0.3 + 0.2 * deficit(v);
    return pers.hasten * base * (countdown >= 2 ? 1 : 0.7);
  }
  switch (legal.name) {
    case 'Composure':
      return ease * pers.type.guard * (0.9 + 1.5 * Math.max(0, v.emo.tilt) + 0.3 * Math.max(0, v.emo.fear) - (ownArena(v, 'Composure') ? 0.6 : 0)) + fear;
    case 'Poker Face':
      return ease * pers.type.mask * (0.2 + 0.8 * EXPOSURE_WORTH * Math.min(3, e) + (e >= 4 ? 0.3 : 0) - (ownArena(v, 'Poker Face') ? 0.8 : 0)) + fear;
    case 'False Tell':
      return ease * pers.type.mask * (0.6 + (e >= 4 ? 0.4 : 0) - (ownArena(v, 'False Tell') ? 0.6 : 0)) + fear;
    case 'Snare':
    case 'Lockjaw':
    case 'Tell': {
      const base = legal.name === 'Snare' ? 1.3 : legal.name === 'Lockjaw' ? 1.0 : 0.65;
      return pers.type.trap * (base - 0.45 * ownTraps(v) + (shaken ? 0.5 : 0));
    }
    case 'Slow Burn':
      return pers.type.ritual * (0.45 * -RULES.effects.slow_burn_resolve * v.opps.length + (v.me.tempo >= 3 ? 0.3 : 0) - 0.8 * ownArena(v, 'Slow Burn'));
    case 'Rebuild':
      return pers.type.ritual * (0.5 + 0.4 * Math.min(RULES.effects.rebuild_resolve, deficit(v) + 1) + (v.me.lives === 1 ? 0.5 : 0) - ownArena(v, 'Rebuild'));
    default:
      return null;
  }
}

/**
 * What own exposure costs, in resolve: every point amplifies incoming damage for the rounds it
 * lingers (passing or a mask are the only ways down), so it matters less late, and not at the cap.
 */
export function exposureCost(v: View, points = 1): number {
  const cap = v.r.public_world_view.rule_flags.round_cap;
  const left = (typeof cap === 'number' ? cap : 30) - v.r.turn;
  const real = Math.max(0, Math.min(points, RULES.exposure_cap - v.me.exposure));
  return (real * EXPOSURE_WORTH * Math.max(1, Math.min(6, left))) / 6;
}

/**
 * One exposure point over a six-round horizon, in resolve: proportional to how much a point
 * amplifies incoming damage (the factor was tuned in simulation at 20 × the damage factor).
 */
export const EXPOSURE_WORTH = 12 * RULES.damage_exposure_factor;

/** Tempo is scarce early and plentiful late; one point is worth less the more the seat has. */
export const tempoWeight = (tempo: number): number => (tempo <= 1 ? 0.6 : tempo <= 3 ? 0.3 : tempo <= 6 ? 0.12 : 0.03);
