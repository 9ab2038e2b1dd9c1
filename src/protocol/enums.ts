import { z } from 'zod';

/**
 * Every closed vocabulary of the game. Kept as `as const` tuples so that both the zod enum and
 * the literal union type come from one place.
 */
export const PHASES = ['upkeep', 'draw', 'intent', 'talk', 'action', 'resolve', 'reflect', 'end'] as const;
export const CARD_TYPES = ['gambit', 'guard', 'trap', 'mask', 'pressure', 'ritual'] as const;
export const ACTION_KINDS = ['play_card', 'activate', 'speak', 'pass', 'reaction'] as const;
export const KINETIC_INTENTS = [
  'discard_pressure',
  'lockout',
  'combo_break',
  'tempo_swing',
  'forced_line',
] as const;
export const EMOTIONAL_INTENTS = ['fear', 'anger', 'shame', 'tilt', 'overconfidence', 'paranoia'] as const;
export const MANIPULATION_PLANS = [
  'threat_framing',
  'bait',
  'false_concession',
  'public_isolation',
  'status_challenge',
  'betrayal_cue',
] as const;
export const DELIVERY_CHANNELS = ['public', 'private', 'mixed'] as const;
export const SPEECH_CHANNELS = ['public', 'private'] as const;
export const SPEECH_ACTS = ['threat', 'promise', 'bluff', 'warning', 'concession', 'taunt', 'neutral'] as const;
export const MANIPULATION_OUTCOMES = ['success', 'partial', 'failed'] as const;
export const EMOTIONS = [
  'valence',
  'arousal',
  'dominance',
  'fear',
  'anger',
  'shame',
  'confidence',
  'greed',
  'tilt',
] as const;
export const WINDOWS = ['intent', 'talk', 'action', 'reaction', 'reflect'] as const;
export const BEHAVIOR_SHIFTS = ['defensive', 'retaliate', 'lash_out', 'reckless', 'withdrawn'] as const;
export const TACTICAL_INTENTS = [...KINETIC_INTENTS, 'defend', 'build'] as const;

export const Phase = z.enum(PHASES);
export const CardType = z.enum(CARD_TYPES);
export const ActionKind = z.enum(ACTION_KINDS);
export const KineticIntent = z.enum(KINETIC_INTENTS);
export const EmotionalIntent = z.enum(EMOTIONAL_INTENTS);
export const ManipulationPlan = z.enum(MANIPULATION_PLANS);
export const DeliveryChannel = z.enum(DELIVERY_CHANNELS);
export const SpeechChannel = z.enum(SPEECH_CHANNELS);
export const SpeechAct = z.enum(SPEECH_ACTS);
export const ManipulationOutcome = z.enum(MANIPULATION_OUTCOMES);
export const EmotionName = z.enum(EMOTIONS);
export const Window = z.enum(WINDOWS);
export const BehaviorShift = z.enum(BEHAVIOR_SHIFTS);
export const TacticalIntent = z.enum(TACTICAL_INTENTS);

export type Phase = z.infer<typeof Phase>;
export type CardType = z.infer<typeof CardType>;
export type ActionKind = z.infer<typeof ActionKind>;
export type KineticIntent = z.infer<typeof KineticIntent>;
export type EmotionalIntent = z.infer<typeof EmotionalIntent>;
export type ManipulationPlan = z.infer<typeof ManipulationPlan>;
export type DeliveryChannel = z.infer<typeof DeliveryChannel>;
export type SpeechChannel = z.infer<typeof SpeechChannel>;
export type SpeechAct = z.infer<typeof SpeechAct>;
export type ManipulationOutcome = z.infer<typeof ManipulationOutcome>;
export type EmotionName = z.infer<typeof EmotionName>;
export type Window = z.infer<typeof Window>;
export type BehaviorShift = z.infer<typeof BehaviorShift>;
export type TacticalIntent = z.infer<typeof TacticalIntent>;
