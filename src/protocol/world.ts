import { z } from 'zod';
import { SecretPlan } from './actions.js';
import { ArenaState, CardRef } from './cards.js';
import { EmotionState, Tell } from './emotion.js';
import { BehaviorShift, Phase, SpeechAct } from './enums.js';
import { GameId, PlayerId } from './ids.js';
import { SCHEMA_VERSION } from './version.js';

/** Seed 003 §3.2, plus what every seat can see of another: its tell and next-round statuses. */
export const PlayerPublicState = z.object({
  player_id: PlayerId,
  display_name: z.string(),
  alive: z.boolean(),
  lives: z.number().int().min(0),
  resolve: z.number().int(),
  tempo: z.number().int().min(0),
  exposure: z.number().int().min(0),
  hand_count: z.number().int().min(0),
  arena_cards: z.array(CardRef),
  tell: Tell,
  locked_out: z.boolean(),
  forced_line_toward: PlayerId.nullable(),
});
export type PlayerPublicState = z.infer<typeof PlayerPublicState>;

/** Undefined by the seed: what a seat remembers across rounds. `agent` is the agent's own memory (tool protocol). */
export const MemoryState = z.object({
  notes: z.array(z.string()),
  agent: z.record(z.string(), z.unknown()),
});
export type MemoryState = z.infer<typeof MemoryState>;

/** A commitment the seat itself made (the speech_act label is private to its speaker). */
export const CommitmentView = z.object({
  commitment_id: z.string(),
  kind: SpeechAct,
  speaker_player_id: PlayerId,
  target_player_id: PlayerId.nullable(),
  turn: z.number().int(),
  public: z.boolean(),
});
export type CommitmentView = z.infer<typeof CommitmentView>;

/** A behaviour-shift read the seat made and that is not scored yet. */
export const PredictionView = z.object({
  target_player_id: PlayerId,
  predicted: BehaviorShift,
  from_turn: z.number().int(),
  to_turn: z.number().int(),
});
export type PredictionView = z.infer<typeof PredictionView>;

/** Undefined by the seed: what a seat can infer about the others from what it saw. */
export const BeliefState = z.object({
  tells: z.record(PlayerId, Tell),
  revealed_plans: z.record(PlayerId, SecretPlan),
  commitments: z.array(CommitmentView),
  predictions: z.array(PredictionView),
});
export type BeliefState = z.infer<typeof BeliefState>;

/** Seed 003 §3.3. */
export const PlayerPrivateState = z.object({
  player_id: PlayerId,
  hand: z.array(CardRef),
  secret_plan: SecretPlan.nullable(),
  memory_state: MemoryState,
  emotion_state: EmotionState,
  belief_state: BeliefState,
});
export type PlayerPrivateState = z.infer<typeof PlayerPrivateState>;

/** A line of this round's table talk as the viewer may see it. */
export const SpeechView = z.object({
  player_id: PlayerId,
  channel: z.enum(['public', 'private']),
  target_player_id: PlayerId.nullable(),
  text: z.string().nullable(),
  speech_act: SpeechAct.nullable(),
});
export type SpeechView = z.infer<typeof SpeechView>;

/** An action submitted this round and waiting for resolve, as the viewer may see it. */
export const StackEntryView = z.object({
  action_id: z.string(),
  player_id: PlayerId,
  kind: z.string(),
  card: CardRef.nullable(),
  target_player_id: PlayerId.nullable(),
  reaction_card: CardRef.nullable(),
});
export type StackEntryView = z.infer<typeof StackEntryView>;

/**
 * Seed 003 §3.1. `seed` is null for seats and spectators (knowing it reveals the deck); admins see
 * it, and researchers once the game is over.
 */
export const WorldState = z.object({
  schema_version: z.string().default(SCHEMA_VERSION),
  game_id: GameId,
  seed: z.number().int().nullable(),
  turn: z.number().int().min(0),
  phase: Phase,
  status: z.enum(['setup', 'running', 'done']),
  players: z.array(PlayerPublicState),
  arena: ArenaState,
  discard: z.array(CardRef),
  initiative_order: z.array(PlayerId),
  rule_flags: z.record(z.string(), z.unknown()),
  round_speech: z.array(SpeechView),
  stack: z.array(StackEntryView),
});
export type WorldState = z.infer<typeof WorldState>;
