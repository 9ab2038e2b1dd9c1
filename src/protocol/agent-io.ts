import { z } from 'zod';
import { ActionChoice, AttackPlan, SecretPlan, SpeechActionPayload } from './actions.js';
import { EmotionDelta } from './emotion.js';
import {
  CardType,
  DeliveryChannel,
  EmotionName,
  KineticIntent,
  Phase,
  Window,
} from './enums.js';
import { CardId, GameId, PlayerId, Probability } from './ids.js';
import { ReflectionRecord } from './reflection.js';
import { SCHEMA_VERSION } from './version.js';
import { PlayerPrivateState, WorldState } from './world.js';

/** One thing the seat may do now. Cards list the arguments they need; everything listed is legal. */
export const LegalAction = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('play_card'),
    card_id: CardId,
    name: z.string(),
    type: CardType,
    tempo_cost: z.number().int(),
    attack: z.boolean(),
    targets: z.array(PlayerId),
    kinetic_intents: z.array(KineticIntent),
    channels: z.array(DeliveryChannel),
    needs_named_player: z.boolean(),
    needs_chosen_emotion: z.boolean(),
  }),
  z.object({
    kind: z.literal('activate'),
    card_id: CardId,
    name: z.string(),
    type: CardType,
    tempo_cost: z.number().int(),
    attack: z.boolean(),
    targets: z.array(PlayerId),
    kinetic_intents: z.array(KineticIntent),
    channels: z.array(DeliveryChannel),
  }),
  z.object({ kind: z.literal('reaction'), card_id: CardId, name: z.string(), tempo_cost: z.number().int() }),
  z.object({
    kind: z.literal('speak'),
    channels: z.array(z.enum(['public', 'private'])),
    targets: z.array(PlayerId),
    max_public: z.number().int(),
    max_private: z.number().int(),
    text_max: z.number().int(),
  }),
  z.object({ kind: z.literal('commit_plan'), targets: z.array(PlayerId) }),
  z.object({ kind: z.literal('reflect') }),
  z.object({ kind: z.literal('pass') }),
]);
export type LegalAction = z.infer<typeof LegalAction>;

/** Limits and context of the window the request is for. */
export const Constraints = z.object({
  window: Window,
  compact: z.boolean(),
  actions_left: z.number().int().min(0),
  locked_out: z.boolean(),
  forced_target: PlayerId.nullable(),
  /** Set when the previous answer in this window was rejected: the agent gets one more try. */
  reprompt: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** When this seat is asked to react: the attack it may guard against. */
  incoming_attack: z
    .object({ action_id: z.string(), attacker_player_id: PlayerId, card_name: z.string() })
    .nullable(),
});
export type Constraints = z.infer<typeof Constraints>;

/** Seed 003 §7.1, plus the routing fields a tool invocation needs. */
export const TurnPlanRequest = z.object({
  schema_version: z.string(),
  request_id: z.string(),
  game_id: GameId,
  player_id: PlayerId,
  turn: z.number().int(),
  phase: Phase,
  window: Window,
  player_private_view: PlayerPrivateState,
  public_world_view: WorldState,
  legal_actions: z.array(LegalAction),
  constraints: Constraints,
});
export type TurnPlanRequest = z.infer<typeof TurnPlanRequest>;

/** A second action in the same answer (compact windows only). */
export const FollowUp = z.object({ selected_action: ActionChoice, attack_plan: AttackPlan.nullable().default(null) });

/** Seed 003 §7.2. Fields an agent may leave out get neutral defaults. */
export const TurnPlanResponse = z.object({
  schema_version: z.string().default(SCHEMA_VERSION),
  selected_action: ActionChoice,
  attack_plan: AttackPlan.nullable().default(null),
  speech_actions: z.array(SpeechActionPayload).max(3).default([]),
  self_estimated_emotion_impact: EmotionDelta.default({}),
  confidence: Probability.default(0.5),
  /** Compact windows: an optional second action. */
  follow_up: FollowUp.nullable().default(null),
  /** Compact windows: an explicit secret plan; otherwise it is taken from the attack plan. */
  secret_plan: SecretPlan.nullable().default(null),
});
export type TurnPlanResponse = z.infer<typeof TurnPlanResponse>;

/** The answer of each window. Talk accepts a bare `{speech_actions}`; reflect a partial record. */
export const IntentDecision = SecretPlan.extend({ schema_version: z.string().default(SCHEMA_VERSION) });
export const TalkDecision = z.object({
  schema_version: z.string().default(SCHEMA_VERSION),
  speech_actions: z.array(SpeechActionPayload).max(3).default([]),
});
export const ReactionDecision = z.object({
  schema_version: z.string().default(SCHEMA_VERSION),
  card_id: CardId.nullable().default(null),
});
export const ReflectDecision = ReflectionRecord.partial().extend({
  schema_version: z.string().default(SCHEMA_VERSION),
  memory_updates: z.array(z.string().max(500)).max(10).default([]),
});
export type IntentDecision = z.infer<typeof IntentDecision>;
export type TalkDecision = z.infer<typeof TalkDecision>;
export type ReactionDecision = z.infer<typeof ReactionDecision>;
export type ReflectDecision = z.infer<typeof ReflectDecision>;

export const ChosenEmotion = EmotionName;

/** The schema each window's answer is read with (a compact action answer is a TurnPlanResponse too). */
export const DECISION_SCHEMAS = {
  intent: IntentDecision,
  talk: TalkDecision,
  action: TurnPlanResponse,
  reaction: ReactionDecision,
  reflect: ReflectDecision,
} as const satisfies Record<z.infer<typeof Window>, z.ZodType>;
