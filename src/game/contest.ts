import type { AttackPlan, ContestRecord } from '../protocol/index.js';
import { type CardDef, defOf } from './cards.js';
import type { EffectBuilder } from './effect-builder.js';
import { round4 } from './math.js';
import { alivePlayers, player } from './players.js';
import type { Rng } from './rng.js';
import type { GameState, PlayerId } from './state.js';

const isPublic = (plan: AttackPlan) => plan.delivery_channel !== 'private';

/** Whether the plan's precondition holds this round (rules brief, "plan bonus"). */
export function planPrecondition(state: GameState, actor: PlayerId, plan: AttackPlan): boolean {
  const target = plan.target_player_id;
  const said = state.speech.filter((x) => x.player_id === actor && x.target_player_id === target);
  switch (plan.manipulation_plan) {
    case 'threat_framing':
      return said.some((x) => x.speech_act === 'threat');
    case 'bait':
      return state.arena.some((a) => a.owner === actor && defOf(state, a.card_id).type === 'trap');
    case 'false_concession':
      return said.some((x) => x.speech_act === 'promise' || x.speech_act === 'concession');
    case 'public_isolation': {
      if (!isPublic(plan)) return false;
      const others = alivePlayers(state).filter((p) => p.player_id !== target);
      if (others.length === 0) return false;
      const mean = others.reduce((sum, p) => sum + (p.trust[target] ?? 0), 0) / others.length;
      return mean < 0;
    }
    case 'status_challenge':
      return isPublic(plan) && player(state, target).emotions.dominance > 0;
    case 'betrayal_cue': {
      const thirds = alivePlayers(state).filter((p) => p.player_id !== actor && p.player_id !== target);
      return said.some(
        (x) =>
          x.channel === 'private' &&
          thirds.some((t) => {
            const text = x.text.toLowerCase();
            return text.includes(t.player_id.toLowerCase()) || text.includes(t.display_name.toLowerCase());
          }),
      );
    }
  }
}

export type ContestInput = {
  actor: PlayerId;
  plan: AttackPlan;
  affect: number;
  guard: CardDef | null;
};

/**
 * The manipulation contest of every attack: power + noise − resistance decides success, partial or
 * failure; the emotional delta lands on the target (at reflect), with audience effects for public
 * delivery. Writes into `fx` and returns the record for the log.
 */
export function runContest(state: GameState, rng: Rng, fx: EffectBuilder, input: ContestInput): ContestRecord {
  const c = state.rules.contest;
  const { actor, plan } = input;
  const a = player(state, actor);
  const t = player(state, plan.target_player_id);
  const precondition = planPrecondition(state, actor, plan);
  const secret = a.secret_plan?.emotional_intent;
  const aligned = !!secret && secret.emotion === plan.emotional_intent && secret.target_player_id === t.player_id;
  let power =
    input.affect +
    (precondition ? c.plan_bonus : c.plan_penalty) +
    (aligned ? c.alignment_bonus : 0) +
    c.exposure_factor * t.exposure +
    c.confidence_factor * Math.max(0, a.emotions.confidence);
  if (t.false_tell_charge) power += state.rules.effects.false_tell_power;
  const arenaOf = (name: string) => state.arena.some((x) => x.owner === t.player_id && state.cards[x.card_id] === name);
  const resistance =
    c.base_resistance +
    c.dominance_resistance * Math.max(0, t.emotions.dominance) +
    c.confidence_resistance * Math.max(0, t.emotions.confidence) +
    (input.guard?.reactionResistance ?? 0) +
    (arenaOf('Composure') ? state.rules.effects.composure_resistance : 0) +
    (arenaOf('Poker Face') ? state.rules.effects.poker_face_resistance : 0) +
    ((t.trust[actor] ?? 0) < 0 ? c.distrust_resistance : 0);
  const noise = rng.uniform(-c.noise, c.noise);
  const margin = power + noise - resistance;
  // Bands are read off the margin as the log records it (4 decimals): float sums such as
  // 0.5 − 0.4 = 0.09999… must not turn a margin the ContestRecord shows as 0.1 into a partial.
  const banded = round4(margin);
  const outcome = banded >= c.success_margin ? 'success' : banded >= 0 ? 'partial' : 'failed';

  if (outcome === 'failed') {
    fx.addExposure(actor, state.rules.exposure.failed_manipulation);
    fx.addGrievance(t.player_id, actor, c.failed_grievance);
    fx.addEmotion(t.player_id, { confidence: c.failed_confidence });
  } else {
    const half = outcome === 'partial' ? 0.5 : 1;
    const channel = plan.delivery_channel === 'private' ? c.channel_private : plan.delivery_channel === 'mixed' ? c.channel_mixed : c.channel_public;
    const scale = half * channel * (input.affect / c.affect_unit) * (1 + c.delta_exposure_factor * t.exposure);
    fx.addEmotion(t.player_id, state.rules.intent_deltas[plan.emotional_intent] ?? {}, scale);
    if (plan.emotional_intent === 'paranoia') {
      for (const other of state.players) {
        if (other.player_id !== t.player_id && other.alive) fx.addTrust(t.player_id, other.player_id, state.rules.effects.paranoia_trust * scale);
      }
    }
    const audience = plan.delivery_channel === 'public' ? 1 : plan.delivery_channel === 'mixed' ? 0.5 : 0;
    if (audience > 0) {
      for (const o of alivePlayers(state)) {
        if (o.player_id !== t.player_id && o.player_id !== actor) fx.addTrust(o.player_id, t.player_id, c.audience_trust * audience * half);
      }
      fx.addSocial(t.player_id, { shame: c.audience_shame, dominance: c.audience_dominance }, audience * half);
    }
    fx.manipulationSuccess = outcome === 'success';
  }
  return {
    power: round4(power),
    resistance: round4(resistance),
    noise: round4(noise),
    margin: round4(margin),
    outcome,
    plan_precondition: precondition,
    aligned,
  };
}
