import { z } from 'zod';
import {
  ActionKind,
  DeliveryChannel,
  EmotionName,
  EmotionalIntent,
  KineticIntent,
  ManipulationPlan,
  Phase,
  SpeechAct,
  SpeechChannel,
  TacticalIntent,
} from './enums.js';
import { ActionId, CardId, GameId, IsoTimestamp, PlayerId, Probability } from './ids.js';

/** Seed 004 caps free text; speech over this is rejected, not truncated. */
export const SPEECH_TEXT_MAX = 500;

/** Seed 003 §4.2 — required for every attack. */
export const AttackPlan = z.object({
  kinetic_intent: KineticIntent,
  emotional_intent: EmotionalIntent,
  manipulation_plan: ManipulationPlan,
  delivery_channel: DeliveryChannel,
  target_player_id: PlayerId,
  expected_behavior_shift: z.string().max(SPEECH_TEXT_MAX),
  confidence: Probability,
});
export type AttackPlan = z.infer<typeof AttackPlan>;

/** Seed 003 §4.3. */
export const SpeechActionPayload = z.object({
  channel: SpeechChannel,
  target_player_id: PlayerId.nullable(),
  text: z.string().min(1).max(SPEECH_TEXT_MAX),
  speech_act: SpeechAct,
});
export type SpeechActionPayload = z.infer<typeof SpeechActionPayload>;

/** The arguments of an action; which ones a card needs is listed in its legal action. */
export const ActionPayload = z.object({
  card_id: CardId.optional(),
  target_player_id: PlayerId.nullable().optional(),
  /** Whisper: the third seat whose trust is poisoned. */
  named_player_id: PlayerId.nullable().optional(),
  /** False Tell: the emotion the mask shows. */
  chosen_emotion: EmotionName.nullable().optional(),
});
export type ActionPayload = z.infer<typeof ActionPayload>;

/** Seed 003 §4.1 — the canonical record of an action, as stored in the log. */
export const ActionEnvelope = z.object({
  action_id: ActionId,
  game_id: GameId,
  turn: z.number().int().min(0),
  phase: Phase,
  player_id: PlayerId,
  kind: ActionKind,
  payload: ActionPayload,
  submitted_at: IsoTimestamp,
});
export type ActionEnvelope = z.infer<typeof ActionEnvelope>;

/**
 * What an agent sends as `selected_action`: the envelope's bookkeeping fields are optional because
 * the engine stamps them; if given they must agree with the request.
 */
export const ActionChoice = ActionEnvelope.partial({
  action_id: true,
  game_id: true,
  turn: true,
  phase: true,
  player_id: true,
  submitted_at: true,
}).extend({ payload: ActionPayload.default({}) });
export type ActionChoice = z.infer<typeof ActionChoice>;

/** Undefined by the seed: the hidden commitment of the intent window, revealed at resolve. */
export const SecretPlan = z.object({
  tactical_intent: TacticalIntent,
  emotional_intent: z
    .object({ emotion: EmotionalIntent, target_player_id: PlayerId })
    .nullable(),
  deception_frame: z.string().max(SPEECH_TEXT_MAX).optional(),
});
export type SecretPlan = z.infer<typeof SecretPlan>;
