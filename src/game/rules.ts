import { z } from 'zod';
import type { EMOTIONAL_INTENTS} from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';

/**
 * Every number of the rules in one versioned place (rules brief: "a default in one versioned rules
 * config"). Bump RULES_VERSION whenever a default changes: a stored game keeps the rules it started with.
 */
export const RULES_VERSION = '1.0.0';

/** One emotional intent's delta; overriding it replaces that intent's whole delta. */
const delta = (d: Partial<Record<(typeof EMOTIONS)[number], number>>) => z.partialRecord(z.enum(EMOTIONS), z.number()).default(d);

export const RulesConfig = z.object({
  rules_version: z.string().default(RULES_VERSION),
  windows: z.enum(['full', 'compact']).default('full'),
  /** Ask agents for a ReflectionRecord each round (the engine's own reflect step always runs). */
  reflect_window: z.boolean().default(true),
  min_seats: z.number().int().default(2),
  max_seats: z.number().int().default(6),
  lives: z.number().int().min(1).default(3),
  resolve_baseline: z.number().int().default(12),
  resolve_after_life_lost: z.number().int().default(8),
  /** How far resolve drifts back toward the baseline at each upkeep. */
  resolve_drift: z.number().int().min(0).default(1),
  /**
   * Anti-stall (an addition to the brief): from `from_round` the yard closes in — no more drift,
   * and every alive seat loses `loss` resolve at upkeep, one more every `step_every` rounds.
   */
  attrition: z
    .object({
      from_round: z.number().int().min(1).default(8),
      loss: z.number().int().min(0).default(1),
      step_every: z.number().int().min(1).default(2),
    })
    .prefault({}),
  opening_hand: z.number().int().default(5),
  draw_per_round: z.number().int().default(2),
  draw_after_life_lost: z.number().int().default(4),
  hand_cap: z.number().int().default(8),
  tempo_cap: z.number().int().default(10),
  tempo_per_upkeep: z.number().int().default(1),
  exposure_cap: z.number().int().default(10),
  round_cap: z.number().int().min(1).default(30),
  actions_per_round: z.number().int().default(2),
  public_statements: z.number().int().default(2),
  private_messages: z.number().int().default(1),
  start_confidence: z.number().default(0.2),
  start_trust: z.number().default(0.2),
  damage_exposure_factor: z.number().default(0.1),
  // Tells
  tell_dominant_at: z.number().int().default(4),
  tell_vector_at: z.number().int().default(8),
  // Manipulation contest
  contest: z
    .object({
      plan_bonus: z.number().default(0.15),
      plan_penalty: z.number().default(-0.1),
      alignment_bonus: z.number().default(0.1),
      exposure_factor: z.number().default(0.05),
      confidence_factor: z.number().default(0.1),
      /** Tuned from the brief's 0.2, at which 95 % of manipulations succeeded. */
      base_resistance: z.number().default(0.45),
      dominance_resistance: z.number().default(0.15),
      confidence_resistance: z.number().default(0.1),
      distrust_resistance: z.number().default(0.1),
      noise: z.number().default(0.15),
      success_margin: z.number().default(0.1),
      failed_grievance: z.number().default(0.1),
      failed_confidence: z.number().default(0.05),
      channel_private: z.number().default(1.25),
      channel_public: z.number().default(1.0),
      channel_mixed: z.number().default(1.1),
      delta_exposure_factor: z.number().default(0.05),
      affect_unit: z.number().default(0.3),
      audience_trust: z.number().default(-0.05),
      audience_shame: z.number().default(0.2),
      audience_dominance: z.number().default(-0.1),
    })
    .prefault({}),
  // Slips
  slip: z
    .object({
      cap: z.number().default(0.5),
      tilt: z.number().default(0.4),
      fear: z.number().default(0.25),
      fear_over: z.number().default(0.4),
      confidence: z.number().default(0.25),
      confidence_over: z.number().default(0.6),
    })
    .prefault({}),
  // Emotion update at reflect
  emotion: z
    .object({
      decay: z.number().default(0.82),
      impact_cap: z.number().default(0.45),
      social_weight: z.number().default(0.25),
      grievance_decay: z.number().default(0.9),
      life_lost: z
        .object({ shame: z.number().default(0.2), fear: z.number().default(0.1), tilt: z.number().default(0.15) })
        .prefault({}),
    })
    .prefault({}),
  // Commitment ledger
  ledger: z
    .object({
      broken_exposure: z.number().int().default(2),
      broken_grievance: z.number().default(0.3),
      broken_public_trust: z.number().default(-0.15),
      kept_trust: z.number().default(0.1),
      credible_fear: z.number().default(0.1),
      empty_threat_dominance: z.number().default(-0.05),
      warning_trust: z.number().default(0.1),
      bluff_called_exposure: z.number().int().default(1),
      bluff_called_tempo: z.number().int().default(1),
      bluff_uncalled_confidence: z.number().default(0.1),
    })
    .prefault({}),
  // Exposure bookkeeping
  exposure: z
    .object({
      second_action: z.number().int().default(1),
      repeat_intent: z.number().int().default(1),
      failed_manipulation: z.number().int().default(1),
      slip: z.number().int().default(1),
      passing_round: z.number().int().default(-1),
    })
    .prefault({}),
  tempo: z
    .object({
      gambit_damage: z.number().int().default(1),
      correct_read: z.number().int().default(1),
      tempo_swing: z.number().int().default(2),
    })
    .prefault({}),
  /** Card effects beyond the catalog's damage/affect/tempo columns. */
  effects: z
    .object({
      snare_resolve: z.number().int().default(-3),
      snare_exposure: z.number().int().default(2),
      tell_resolve: z.number().int().default(-2),
      tell_tempo: z.number().int().default(2),
      lockjaw_affect_scale: z.number().default(0.5),
      slow_burn_resolve: z.number().int().default(-2),
      slow_burn_tilt: z.number().default(0.1),
      rebuild_resolve: z.number().int().default(5),
      rebuild_confidence: z.number().default(0.2),
      composure_tilt: z.number().default(-0.2),
      composure_resistance: z.number().default(0.2),
      poker_face_exposure: z.number().int().default(-3),
      poker_face_resistance: z.number().default(0.15),
      false_tell_power: z.number().default(-0.15),
      false_tell_shown: z.number().default(0.8),
      paranoia_trust: z.number().default(-0.1),
    })
    .prefault({}),
  /** Rules brief, "Delta by emotional intent", before scaling. */
  intent_deltas: z
    .object({
      fear: delta({ fear: 0.25, dominance: -0.1, valence: -0.1 }),
      anger: delta({ anger: 0.25, arousal: 0.15, tilt: 0.05 }),
      shame: delta({ shame: 0.25, confidence: -0.15, valence: -0.1 }),
      tilt: delta({ tilt: 0.3, arousal: 0.1 }),
      overconfidence: delta({ confidence: 0.25, greed: 0.1, tilt: 0.05 }),
      paranoia: delta({ fear: 0.15, tilt: 0.1 }),
    } satisfies Record<(typeof EMOTIONAL_INTENTS)[number], unknown>)
    .prefault({}),
  prediction_rounds: z.number().int().default(2),
  /** Reflect's trust/grievance update: each attack received this round, toward its attacker. */
  attacked_trust: z.number().default(-0.05),
  attacked_grievance: z.number().default(0.1),
  /** Activating an own arena card: springing a face-down trap as an attack, or hastening a ritual. */
  activate: z
    .object({
      cost: z.number().int().default(1),
      spring_damage: z.number().int().default(1),
      spring_affect: z.number().default(0.2),
    })
    .prefault({}),
});
export type RulesConfig = z.infer<typeof RulesConfig>;
export type RulesInput = z.input<typeof RulesConfig>;

export const DEFAULT_RULES: RulesConfig = RulesConfig.parse({});
