import { z } from 'zod';
import { CardMove } from './cards.js';
import { EmotionDelta } from './emotion.js';
import { ManipulationOutcome, Phase } from './enums.js';
import { ActionId, EventId, GameId, PlayerId } from './ids.js';

const IntMap = z.record(PlayerId, z.number().int());
const FloatMap = z.record(PlayerId, z.number());

/** Timed conditions an effect puts on a seat for the next round. */
export const StatusChange = z.object({
  player_id: PlayerId,
  status: z.enum(['lockout', 'forced_line']),
  /** For forced_line: the seat the target's attacks must aim at. */
  toward_player_id: PlayerId.nullable(),
});
export type StatusChange = z.infer<typeof StatusChange>;

/** Seed 003 §5.2, plus the timed statuses and arena clocks an effect can set. */
export const TacticalEffect = z.object({
  resolve_delta: IntMap,
  tempo_delta: IntMap,
  exposure_delta: IntMap,
  card_moves: z.array(CardMove),
  triggered_effects: z.array(z.string()),
  status_changes: z.array(StatusChange).default([]),
});
export type TacticalEffect = z.infer<typeof TacticalEffect>;

/** Seed 003 §5.3. `emotion_delta` is an impact that lands at reflect (rules: emotion update). */
export const AffectiveEffect = z.object({
  emotion_delta: z.record(PlayerId, EmotionDelta),
  /** Social (audience) impacts, weighted ×0.25 at reflect. */
  social_delta: z.record(PlayerId, EmotionDelta).default({}),
  trust_delta: z.record(PlayerId, FloatMap),
  grievance_delta: z.record(PlayerId, FloatMap),
  manipulation_success: z.boolean(),
  observed_behavior_shift: z.string().nullable(),
});
export type AffectiveEffect = z.infer<typeof AffectiveEffect>;

/** The manipulation contest's numbers, kept for research. */
export const ContestRecord = z.object({
  power: z.number(),
  resistance: z.number(),
  noise: z.number(),
  margin: z.number(),
  outcome: ManipulationOutcome,
  plan_precondition: z.boolean(),
  aligned: z.boolean(),
});
export type ContestRecord = z.infer<typeof ContestRecord>;

/** Seed 003 §5.1. */
export const ResolutionEvent = z.object({
  event_id: EventId,
  game_id: GameId,
  turn: z.number().int(),
  phase: Phase,
  action_id: ActionId,
  actor_player_id: PlayerId,
  target_player_ids: z.array(PlayerId),
  tactical_effect: TacticalEffect,
  affective_effect: AffectiveEffect,
  rules_notes: z.array(z.string()),
});
export type ResolutionEvent = z.infer<typeof ResolutionEvent>;
