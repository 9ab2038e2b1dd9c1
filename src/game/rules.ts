import { z } from 'zod';
import type { EMOTIONAL_INTENTS} from '../protocol/index.js';
import { EMOTIONS } from '../protocol/index.js';
import { clonePlain } from './clone.js';

/**
 * Every number of the rules in one versioned place (rules brief: "a default in one versioned rules
 * config"). Bump RULES_VERSION whenever a default changes: a stored game keeps the rules it started with.
 */
export const RULES_VERSION = '2.0.0';

/**
 * Every rules version this build plays. A stored game is pinned to the version it started with
 * (games.rules_version, and game_started's full rules): its defaults come from that version's
 * column below, so an old game replays byte for byte after the defaults move on.
 */
export const RULES_VERSIONS = ['1.0.0', '2.0.0'] as const;
export type RulesVersion = (typeof RULES_VERSIONS)[number];

/**
 * Every number a rules override may set has a range (a sanity bound, not a balance judgement):
 * wide enough for any experiment, narrow enough that a game stays finite and its numbers small
 * (no `lives: 1e9`, no negative hand cap, no 1,000-card opening hand). Emotions live in [-1, 1],
 * so their deltas and factors do too; other coefficients stay within ±10.
 */
const Int = (min: number, max: number) => z.number().int().min(min).max(max);
const Num = (min: number, max: number) => z.number().min(min).max(max);

/** One emotional intent's delta; overriding it replaces that intent's whole delta. */
const delta = (d: Partial<Record<(typeof EMOTIONS)[number], number>>) => z.partialRecord(z.enum(EMOTIONS), Num(-1, 1)).default(d);

const RulesObject = z.object({
  /** Only versions this build plays: a game asking for other rules would silently get these. */
  rules_version: z
    .string()
    .refine((v) => (RULES_VERSIONS as readonly string[]).includes(v), { error: `is not a rules version this build plays (it plays ${RULES_VERSIONS.join(', ')})` })
    .default(RULES_VERSION),
  windows: z.enum(['full', 'compact']).default('full'),
  /** Ask agents for a ReflectionRecord each round (the engine's own reflect step always runs). */
  reflect_window: z.boolean().default(true),
  min_seats: Int(2, 6).default(2),
  max_seats: Int(2, 6).default(6),
  lives: Int(1, 10).default(3),
  resolve_baseline: Int(1, 100).default(12),
  resolve_after_life_lost: Int(1, 100).default(8),
  /** How far resolve drifts back toward the baseline at each upkeep. */
  resolve_drift: Int(0, 20).default(1),
  /**
   * Anti-stall (an addition to the brief): from `from_round` the yard closes in — no more drift,
   * and every alive seat loses `loss` resolve at upkeep, one more every `step_every` rounds.
   */
  attrition: z
    .object({
      from_round: Int(1, 1000).default(8),
      loss: Int(0, 20).default(1),
      step_every: Int(1, 50).default(2),
    })
    .prefault({}),
  opening_hand: Int(0, 20).default(5),
  draw_per_round: Int(0, 10).default(2),
  draw_after_life_lost: Int(0, 20).default(4),
  hand_cap: Int(1, 30).default(8),
  tempo_cap: Int(0, 100).default(10),
  tempo_per_upkeep: Int(0, 20).default(1),
  exposure_cap: Int(1, 100).default(10),
  round_cap: Int(1, 200).default(30),
  actions_per_round: Int(1, 10).default(2),
  public_statements: Int(0, 10).default(2),
  private_messages: Int(0, 10).default(1),
  start_confidence: Num(-1, 1).default(0.2),
  start_trust: Num(-1, 1).default(0.2),
  damage_exposure_factor: Num(0, 1).default(0.1),
  // Tells
  tell_dominant_at: Int(0, 100).default(4),
  tell_vector_at: Int(0, 100).default(8),
  // Manipulation contest
  contest: z
    .object({
      plan_bonus: Num(-10, 10).default(0.15),
      plan_penalty: Num(-10, 10).default(-0.1),
      alignment_bonus: Num(-10, 10).default(0.1),
      exposure_factor: Num(-10, 10).default(0.05),
      confidence_factor: Num(-10, 10).default(0.1),
      /** Tuned from the brief's 0.2, at which 95 % of manipulations succeeded. */
      base_resistance: Num(-10, 10).default(0.45),
      dominance_resistance: Num(-10, 10).default(0.15),
      confidence_resistance: Num(-10, 10).default(0.1),
      distrust_resistance: Num(-10, 10).default(0.1),
      noise: Num(-10, 10).default(0.15),
      success_margin: Num(-10, 10).default(0.1),
      failed_grievance: Num(-10, 10).default(0.1),
      failed_confidence: Num(-10, 10).default(0.05),
      channel_private: Num(-10, 10).default(1.25),
      channel_public: Num(-10, 10).default(1.0),
      channel_mixed: Num(-10, 10).default(1.1),
      delta_exposure_factor: Num(-10, 10).default(0.05),
      affect_unit: Num(-10, 10).default(0.3),
      audience_trust: Num(-10, 10).default(-0.05),
      audience_shame: Num(-10, 10).default(0.2),
      audience_dominance: Num(-10, 10).default(-0.1),
    })
    .prefault({}),
  // Slips
  slip: z
    .object({
      cap: Num(-10, 10).default(0.5),
      tilt: Num(-10, 10).default(0.4),
      fear: Num(-10, 10).default(0.25),
      fear_over: Num(-10, 10).default(0.4),
      confidence: Num(-10, 10).default(0.25),
      confidence_over: Num(-10, 10).default(0.6),
    })
    .prefault({}),
  // Emotion update at reflect
  emotion: z
    .object({
      decay: Num(0, 1).default(0.82),
      impact_cap: Num(0, 1).default(0.45),
      social_weight: Num(0, 1).default(0.25),
      grievance_decay: Num(0, 1).default(0.9),
      life_lost: z
        .object({ shame: Num(0, 1).default(0.2), fear: Num(0, 1).default(0.1), tilt: Num(0, 1).default(0.15) })
        .prefault({}),
    })
    .prefault({}),
  // Commitment ledger
  ledger: z
    .object({
      broken_exposure: Int(-20, 20).default(2),
      broken_grievance: Num(-10, 10).default(0.3),
      broken_public_trust: Num(-10, 10).default(-0.15),
      kept_trust: Num(-10, 10).default(0.1),
      credible_fear: Num(-10, 10).default(0.1),
      empty_threat_dominance: Num(-10, 10).default(-0.05),
      warning_trust: Num(-10, 10).default(0.1),
      bluff_called_exposure: Int(-20, 20).default(1),
      bluff_called_tempo: Int(-20, 20).default(1),
      bluff_uncalled_confidence: Num(-10, 10).default(0.1),
    })
    .prefault({}),
  // Exposure bookkeeping
  exposure: z
    .object({
      second_action: Int(-20, 20).default(1),
      repeat_intent: Int(-20, 20).default(1),
      failed_manipulation: Int(-20, 20).default(1),
      slip: Int(-20, 20).default(1),
      passing_round: Int(-20, 20).default(-1),
      /**
       * Rules 2.0.0: every seat's exposure also falls this much each round. Absent in 1.0.0 (as are
       * all 2.0.0 keys), so a 1.0.0 game's game_started rules stay byte for byte what they were.
       */
      round_decay: Int(0, 20).optional(),
    })
    .prefault({}),
  tempo: z
    .object({
      gambit_damage: Int(-20, 20).default(1),
      correct_read: Int(-20, 20).default(1),
      tempo_swing: Int(-20, 20).default(2),
    })
    .prefault({}),
  /** Card effects beyond the catalog's damage/affect/tempo columns. */
  effects: z
    .object({
      snare_resolve: Int(-20, 20).default(-3),
      snare_exposure: Int(-20, 20).default(2),
      tell_resolve: Int(-20, 20).default(-2),
      tell_tempo: Int(-20, 20).default(2),
      lockjaw_affect_scale: Num(-10, 10).default(0.5),
      slow_burn_resolve: Int(-20, 20).default(-2),
      slow_burn_tilt: Num(-10, 10).default(0.1),
      rebuild_resolve: Int(-20, 20).default(5),
      rebuild_confidence: Num(-10, 10).default(0.2),
      composure_tilt: Num(-10, 10).default(-0.2),
      composure_resistance: Num(-10, 10).default(0.2),
      poker_face_exposure: Int(-20, 20).default(-3),
      poker_face_resistance: Num(-10, 10).default(0.15),
      false_tell_power: Num(-10, 10).default(-0.15),
      false_tell_shown: Num(-10, 10).default(0.8),
      paranoia_trust: Num(-10, 10).default(-0.1),
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
  prediction_rounds: Int(0, 50).default(2),
  /** Reflect's trust/grievance update: each attack received this round, toward its attacker. */
  attacked_trust: Num(-10, 10).default(-0.05),
  attacked_grievance: Num(-10, 10).default(0.1),
  /**
   * Rules 2.0.0, engagement (absent in 1.0.0): from `idle_from_round`, a seat that attacked no
   * one last round loses `idle_loss` resolve at upkeep; an attack that deals damage gives its
   * attacker `spoils` resolve back (capped at the baseline).
   */
  engagement: z
    .object({
      idle_from_round: Int(1, 1000).default(1),
      idle_loss: Int(0, 20).default(0),
      spoils: Int(0, 20).default(0),
      /** Damage a guarded attack still deals (no guard turns a blow into nothing). */
      guard_chip: Int(0, 20).default(0),
    })
    .optional(),
  /** Activating an own arena card: springing a face-down trap as an attack, or hastening a ritual. */
  activate: z
    .object({
      cost: Int(0, 10).default(1),
      spring_damage: Int(0, 20).default(1),
      spring_affect: Num(-10, 10).default(0.2),
    })
    .prefault({}),
});

/**
 * What 2.0.0 changed from 1.0.0 (docs/rules.md, "Rules 2.0.0"). The object's own defaults above are
 * 1.0.0's (every 2.0.0 mechanic off), so 1.0.0 needs no column of its own.
 */
export const V2_DEFAULTS = {
  engagement: { idle_from_round: 2, idle_loss: 2, spoils: 2, guard_chip: 1 },
  exposure: { round_decay: 1, second_action: 0, repeat_intent: 0 },
} as const;

const VERSION_DEFAULTS: Record<RulesVersion, Record<string, unknown>> = { '1.0.0': {}, '2.0.0': V2_DEFAULTS };

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Input over defaults, one level of nesting deep (the config's groups); input wins. */
function underlay(defaults: Record<string, unknown>, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...defaults };
  for (const [k, v] of Object.entries(input)) out[k] = isObject(v) && isObject(defaults[k]) ? { ...defaults[k], ...v } : v;
  return out;
}

/** Lays the version's defaults under the input, so an override still wins and 1.0.0 stays 1.0.0. */
function versioned(input: unknown): unknown {
  if (!isObject(input)) return input;
  const version = input['rules_version'] ?? RULES_VERSION;
  const defaults = typeof version === 'string' ? VERSION_DEFAULTS[version as RulesVersion] : undefined;
  return defaults ? underlay(defaults, input) : input;
}

/** The rules of a game: the version's defaults under the given overrides. */
export const RulesConfig = z.preprocess(versioned, RulesObject);
/** The same, refusing unknown keys (rules files and tournament configs: a typo is an error). */
export const StrictRulesConfig = z.preprocess(versioned, RulesObject.strict());
export type RulesConfig = z.infer<typeof RulesObject>;
export type RulesInput = z.input<typeof RulesObject>;

export const DEFAULT_RULES: RulesConfig = RulesConfig.parse({});

/**
 * Rules objects that came out of RulesConfig here. Parsing is idempotent, so a vouched object
 * needs only a copy: game_started re-parsed the rules initialState had just parsed, a tenth of a
 * random game's whole cost. The engine never mutates its rules.
 */
const parsedRules = new WeakSet<object>();

/** Marks rules that RulesConfig (or a schema containing it) produced. */
export function vouchRules(rules: RulesConfig): void {
  parsedRules.add(rules);
}

/** RulesConfig.parse, or a plain copy of rules this build already parsed (the same value). */
export function parseRules(input: unknown): RulesConfig {
  if (typeof input === 'object' && input !== null && parsedRules.has(input)) return clonePlain(input as RulesConfig);
  const rules = RulesConfig.parse(input);
  parsedRules.add(rules);
  return rules;
}

/** The engagement rules in force: 2.0.0's when present, else 1.0.0's (all off). */
export const engagementOf = (r: RulesConfig): NonNullable<RulesConfig['engagement']> =>
  r.engagement ?? { idle_from_round: 1, idle_loss: 0, spoils: 0, guard_chip: 0 };
