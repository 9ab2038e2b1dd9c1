import type { AttackPlan, EmotionalIntent, KineticIntent, PlayerPublicState } from '../../../protocol/index.js';
import { cardDef } from '../../../game/cards.js';
import type { Memory } from './memory.js';
import type { Personality } from './personality.js';
import { choosePlan, type PlanChoice, type Said } from './plans.js';
import { predictShift, shiftText } from './predict.js';
import { chooseEmotion, desirability } from './targeting.js';
import { amplify, RULES } from './rules.js';
import { exposureCost } from './values.js';
import { faceDown, ownTraps, readEmotion, showsCard, standing, type CardLegal, type View } from './view.js';

const GUARD_SHARE = 15 / 120;
/** Of the face-down cards (8 Snare, 6 Tell, 6 Lockjaw, 7 False Tell): the share that punishes gambits / pressure. */
const SNARE_SHARE = 8 / 27;
const LOCKJAW_SHARE = 6 / 27;

export type AttackEval = {
  value: number;
  target: PlayerPublicState;
  kinetic: KineticIntent;
  emotion: EmotionalIntent;
  choice: PlanChoice;
  /** Expected contest margin before noise. */
  margin: number;
  named: string | null;
};

/** What a seat's most valuable arena card is worth to destroy (combo_break order). */
function arenaWorth(v: View, owner: string): number {
  let best = 0;
  for (const a of v.r.public_world_view.arena.cards) {
    if (a.owner_player_id !== owner) continue;
    const w = a.face_down ? 1.2 : a.card.type === 'ritual' ? (a.card.name === 'Slow Burn' ? 3.5 : 2.5) : a.card.type === 'mask' ? 0.8 : a.card.type === 'guard' ? 0.7 : 0.3;
    if (w > best) best = w;
    if (a.card.type === 'ritual') break; // combo_break takes rituals first
  }
  return best;
}

function kineticValue(ctx: AttackCtx, info: TargetInfo, m: Memory, k: KineticIntent, t: PlayerPublicState, discard: number): number {
  const repeat = m.kineticPrev.includes(k) ? 0.8 : 0;
  switch (k) {
    case 'tempo_swing':
      return Math.min(2, t.tempo) * 0.55 - repeat;
    case 'forced_line':
      // Forcing a seat onto our face-down traps is the trickster's favourite bait.
      return 0.25 + (ctx.baiting ? 1.1 : 0) - repeat;
    case 'lockout':
      return (t.locked_out ? 0.4 : 0.9) - repeat;
    case 'discard_pressure':
      return 0.45 * Math.min(t.hand_count, discard) - repeat;
    case 'combo_break':
      return info.worth - repeat;
  }
}

function bestKinetic(ctx: AttackCtx, info: TargetInfo, m: Memory, legal: CardLegal, t: PlayerPublicState, applies: boolean, discard: number): { k: KineticIntent; value: number } {
  const ks = legal.kinetic_intents;
  if (!applies) {
    // A declared-only intent (pressure cards) does nothing, but repeating last round's still costs
    // exposure: take the first fresh one, starting at a place that moves with the round.
    for (let i = 0; i < ks.length; i++) {
      const k = ks[(ctx.turn + i) % ks.length]!;
      if (!m.kineticPrev.includes(k)) return { k, value: 0 };
    }
    return { k: ks[0]!, value: -1 };
  }
  let best: KineticIntent = ks[0]!;
  let top = -Infinity;
  for (const k of ks) {
    const val = kineticValue(ctx, info, m, k, t, discard);
    if (val > top) {
      top = val;
      best = k;
    }
  }
  return { k: best, value: top };
}

/** What the target brings to every manipulation contest against it (rules' formula; its tells). */
function resistance(v: View, t: PlayerPublicState): number {
  const c = RULES.contest;
  const e = RULES.effects;
  return (
    c.base_resistance +
    c.dominance_resistance * Math.max(0, readEmotion(t, 'dominance') ?? 0) +
    c.confidence_resistance * Math.max(0, readEmotion(t, 'confidence') ?? RULES.start_confidence) +
    (showsCard(v, t.player_id, 'Composure') ? e.composure_resistance : 0) +
    (showsCard(v, t.player_id, 'Poker Face') ? e.poker_face_resistance : 0) -
    c.exposure_factor * t.exposure
  );
}

/** The expected contest margin before noise. */
function expectedMargin(v: View, resist: number, affect: number, holds: boolean, aligned: boolean): number {
  const c = RULES.contest;
  return affect + (holds ? c.plan_bonus : c.plan_penalty) + (aligned ? c.alignment_bonus : 0) + c.confidence_factor * Math.max(0, v.emo.confidence) - resist;
}

/** P(noisy margin ≥ x) under the contest's uniform noise. */
function above(margin: number, x: number): number {
  const n = RULES.contest.noise;
  return Math.min(1, Math.max(0, (margin - x + n) / (2 * n)));
}

/**
 * What the manipulation is worth: its delta when it lands (half on a partial), less what a failure
 * costs the attacker (exposure, and the target's grievance).
 */
function manipulationWorth(ctx: AttackCtx, margin: number, affect: number): number {
  const success = above(margin, RULES.contest.success_margin);
  const fail = 1 - above(margin, 0);
  return affect * 3.6 * (success + 0.5 * (1 - success - fail)) - fail * (ctx.failCost + 0.3);
}

/** Which third seat a Whisper names: the strongest seat that is neither us nor the target. */
function whisperName(v: View, target: string, preferred: string | null): string | null {
  if (preferred && preferred !== target && v.opps.some((o) => o.player_id === preferred)) return preferred;
  let best: string | null = null;
  let top = -Infinity;
  for (const o of v.opps) {
    if (o.player_id === target) continue;
    const s = standing(o);
    if (s > top) {
      top = s;
      best = o.player_id;
    }
  }
  return best;
}

/** Per-decision work shared by every card aimed at the same target. */
type TargetInfo = {
  desire: number;
  /** Damage to a seat ahead of us counts for more. */
  weight: number;
  emotion: EmotionalIntent;
  resist: number;
  traps: number;
  amp: number;
  guardOdds: number;
  /** What combo_break would destroy. */
  worth: number;
  plans: Map<string, PlanChoice>;
};

/** Per-decision scratch of the attack evaluation: computed once, read for every card and target. */
export type AttackCtx = { turn: number; targets: Map<string, TargetInfo>; failCost: number; snareCost: number; baiting: boolean };

export const attackCtx = (v: View): AttackCtx => ({
  turn: v.r.turn,
  targets: new Map(),
  failCost: exposureCost(v, RULES.exposure.failed_manipulation),
  snareCost: -RULES.effects.snare_resolve + exposureCost(v, RULES.effects.snare_exposure),
  baiting: ownTraps(v) > 0,
});

function targetInfo(v: View, m: Memory, pers: Personality, ctx: AttackCtx, t: PlayerPublicState): TargetInfo {
  let info = ctx.targets.get(t.player_id);
  if (!info) {
    const rp = m.plan;
    const lead = (standing(t) - standing(v.me)) / RULES.resolve_baseline;
    info = {
      desire: Math.max(-1, Math.min(2, 0.35 * desirability(v, m, pers, t))),
      weight: 1 + 0.3 * pers.leader * Math.max(-0.5, Math.min(1.5, lead)),
      emotion: rp && rp.target === t.player_id ? rp.emotion : chooseEmotion(v, pers, t),
      resist: resistance(v, t),
      traps: faceDown(v, t.player_id),
      amp: amplify(t.exposure),
      guardOdds: 1 - Math.pow(1 - GUARD_SHARE, t.hand_count),
      worth: arenaWorth(v, t.player_id),
      plans: new Map(),
    };
    ctx.targets.set(t.player_id, info);
  }
  return info;
}

/**
 * Values an attack card (or a trap spring) against one target: damage (amplified by exposure, less
 * the guards the target may hold), a lethal bonus, the manipulation's worth with the best-holding
 * plan, the kinetic intent's worth, minus the traps it may walk into. `attackPlan` writes the plan.
 */
export function evalAttack(
  v: View,
  m: Memory,
  pers: Personality,
  ctx: AttackCtx,
  legal: CardLegal,
  t: PlayerPublicState,
  extra: readonly Said[],
  trapComing: boolean,
): AttackEval | null {
  const def = legal.kind === 'activate' ? null : cardDef(legal.name);
  const springing = def === null;
  const named = def?.needsNamedPlayer ? whisperName(v, t.player_id, m.plan?.named ?? null) : null;
  if (def?.needsNamedPlayer && !named) return null;
  const damage = def ? def.damage : RULES.activate.spring_damage;
  const affect = def ? def.affect : RULES.activate.spring_affect;
  const rp = m.plan;
  const aligned = !!rp && rp.target === t.player_id;
  const info = targetInfo(v, m, pers, ctx, t);
  const channels = legal.channels.length === 3 ? 'all' : legal.channels.join();
  let choice = info.plans.get(channels);
  if (!choice) {
    choice = choosePlan(v, pers, t.player_id, legal.channels, rp && aligned ? rp : null, extra, trapComing);
    info.plans.set(channels, choice);
  }

  const raw = damage * info.amp;
  const dealt = raw - 0.6 * info.guardOdds * Math.min(raw, 2.5);
  // Damage counts for more on a seat ahead of us in the standings: placement is what wins.
  let value = info.weight * (dealt + (t.resolve > 0 && t.resolve <= Math.round(raw) ? 2.5 : 0));
  const margin = expectedMargin(v, info.resist, affect, choice.holds, aligned && info.emotion === rp.emotion);
  value += manipulationWorth(ctx, margin, affect) + (aligned ? 0.3 : 0);
  const kin = bestKinetic(ctx, info, m, legal, t, springing || (def?.kineticApplies ?? false), def?.discardCount ?? 1);
  value += kin.value;
  const traps = info.traps;
  if (traps > 0 && def?.type === 'gambit') value -= pers.caution * ctx.snareCost * (1 - Math.pow(1 - SNARE_SHARE, traps));
  if (traps > 0 && def?.type === 'pressure') value -= pers.caution * 1.2 * (1 - Math.pow(1 - LOCKJAW_SHARE, traps));
  // Overreach's own exposure +2 amplifies every hit the seat takes afterwards.
  if (def?.name === 'Overreach') value = value * pers.overreach - exposureCost(v, def.ownExposure);
  if (def?.name === 'Humiliate') value += 0.3; // the audience's trust in the target drops too
  if (def?.name === 'Whisper') value += 0.4; // and the target's trust in the named seat
  value += info.desire + pers.attack;
  return { value, target: t, kinetic: kin.k, emotion: info.emotion, choice, margin, named };
}

/** The AttackPlan of an evaluated attack, with its behaviour-shift read and success odds. */
export function attackPlan(v: View, m: Memory, ev: AttackEval): AttackPlan {
  const t = ev.target;
  return {
    kinetic_intent: ev.kinetic,
    emotional_intent: ev.emotion,
    manipulation_plan: ev.choice.plan,
    delivery_channel: ev.choice.channel,
    target_player_id: t.player_id,
    expected_behavior_shift: shiftText(predictShift(v, m, t, ev.emotion), t.display_name),
    confidence: Math.round(Math.min(0.95, Math.max(0.05, above(ev.margin, RULES.contest.success_margin))) * 100) / 100,
  };
}
