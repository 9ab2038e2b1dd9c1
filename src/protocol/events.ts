import { z } from 'zod';
import { ActionEnvelope, AttackPlan, SecretPlan } from './actions.js';
import { CardMove, CardRef } from './cards.js';
import { EmotionVector, Tell } from './emotion.js';
import { BehaviorShift, ManipulationOutcome, Phase, SpeechAct, SpeechChannel, Window } from './enums.js';
import { ActionId, CardId, EventId, GameId, IsoTimestamp, PlayerId } from './ids.js';
import { AffectiveEffect, ContestRecord, TacticalEffect } from './resolution.js';
import { ReflectionRecord } from './reflection.js';

const IntMap = z.record(PlayerId, z.number().int());
const FloatMap = z.record(PlayerId, z.number());

/** seedrandom's alea state: four numbers, cheap to snapshot and restore. */
export const RngState = z.object({ c: z.number(), s0: z.number(), s1: z.number(), s2: z.number() });
export type RngState = z.infer<typeof RngState>;

/**
 * Which payload keys are private, and to whom. One projection function (views) reads this; admins
 * see everything, researchers see everything once the game is over, seats see keys listing them.
 */
export const Visibility = z.object({
  hidden: z.array(z.object({ key: z.string(), to: z.array(PlayerId) })),
});
export type Visibility = z.infer<typeof Visibility>;

export const PlayerSeat = z.object({
  player_id: PlayerId,
  display_name: z.string(),
  seat: z.number().int().min(0),
  baseline: EmotionVector,
});
export type PlayerSeat = z.infer<typeof PlayerSeat>;

export const Placement = z.object({
  player_id: PlayerId,
  placement: z.number().int().min(1),
  alive: z.boolean(),
  lives: z.number().int(),
  resolve: z.number().int(),
  tempo: z.number().int(),
  exposure: z.number().int(),
  eliminated_turn: z.number().int().nullable(),
});
export type Placement = z.infer<typeof Placement>;

const ArenaTick = z.object({ card_id: CardId, rounds_left: z.number().int().nullable(), countdown: z.number().int().nullable() });

const Settlement = z.object({
  commitment_id: z.string(),
  kind: SpeechAct,
  speaker_player_id: PlayerId,
  target_player_id: PlayerId.nullable(),
  outcome: z.enum(['broken', 'kept', 'credible', 'empty', 'came_true', 'expired', 'called', 'uncalled']),
});

const payloads = {
  game_started: z.object({
    rules_version: z.string(),
    rules: z.record(z.string(), z.unknown()),
    seed: z.number().int().optional(),
    players: z.array(PlayerSeat),
    base_order: z.array(PlayerId),
    /** card_id → catalog name. Secret: card ids are dealt at random so an id says nothing. */
    cards: z.record(CardId, z.string()).optional(),
    /** Top of the deck first. Secret. */
    deck: z.array(CardId).optional(),
    deck_count: z.number().int(),
  }),
  phase_changed: z.object({ phase: Phase, turn: z.number().int() }),
  upkeep_applied: z.object({
    initiative_order: z.array(PlayerId),
    resolve_delta: IntMap,
    tempo_delta: IntMap,
    locked_out: z.array(PlayerId),
    forced_lines: z.record(PlayerId, PlayerId),
    /** Face-up cards' clocks; face-down clocks tick in evolve without showing here. */
    arena_ticks: z.array(ArenaTick),
    card_moves: z.array(CardMove),
  }),
  ritual_fired: z.object({
    card: CardRef,
    owner_player_id: PlayerId,
    tactical_effect: TacticalEffect,
    affective_effect: AffectiveEffect.optional(),
    rules_notes: z.array(z.string()),
  }),
  cards_drawn: z.object({
    player_id: PlayerId,
    count: z.number().int().min(0),
    cards: z.array(CardId).optional(),
    /** The drawn cards' faces, private like `cards` (a view names the cards in its hands). */
    card_refs: z.array(CardRef).optional(),
    reason: z.enum(['opening', 'draw', 'life_lost']),
  }),
  deck_reshuffled: z.object({ count: z.number().int(), order: z.array(CardId).optional() }),
  /**
   * A fork's reseed at its fork point: the undrawn deck in a new order (`order`, seen by no seat)
   * and a new PRNG state (the envelope's `rng`), both from a secret the engine is given.
   */
  hidden_reseeded: z.object({ count: z.number().int().min(0), order: z.array(CardId).optional() }),
  cards_discarded: z.object({
    player_id: PlayerId,
    cards: z.array(CardRef),
    reason: z.enum(['hand_cap']),
  }),
  secret_plan_committed: z.object({
    player_id: PlayerId,
    plan: SecretPlan.optional(),
    /** Private like the plan: a public "defaulted" would reveal the default plan before resolve. */
    defaulted: z.boolean().optional(),
    rejection: z.object({ code: z.string(), message: z.string() }).nullable().optional(),
  }),
  speech_posted: z.object({
    player_id: PlayerId,
    channel: SpeechChannel,
    target_player_id: PlayerId.nullable(),
    text: z.string().optional(),
    speech_act: SpeechAct.optional(),
    commitment_id: z.string().nullable().optional(),
  }),
  action_submitted: z.object({
    action_id: ActionId,
    player_id: PlayerId,
    kind: z.enum(['play_card', 'activate', 'pass']),
    /** Absent for passes; hidden from others for face-down plays. */
    action: ActionEnvelope.optional(),
    card: CardRef.nullable().optional(),
    target_player_id: PlayerId.nullable(),
    attack_plan: AttackPlan.nullable().optional(),
    tempo_paid: z.number().int().min(0),
    forced: z.boolean(),
    rules_notes: z.array(z.string()),
  }),
  action_rejected: z.object({
    player_id: PlayerId,
    window: Window,
    /** Private: "insufficient tempo" and the like would hint at the seat's hand. */
    code: z.string().optional(),
    message: z.string().optional(),
    attempt: z.number().int().min(1),
    reprompt: z.boolean(),
  }),
  reaction_submitted: z.object({
    player_id: PlayerId,
    action_id: ActionId,
    card: CardRef.nullable(),
    tempo_paid: z.number().int().min(0),
  }),
  plans_revealed: z.object({ plans: z.record(PlayerId, SecretPlan) }),
  action_resolved: z.object({
    action_id: ActionId,
    actor_player_id: PlayerId,
    target_player_ids: z.array(PlayerId),
    kind: z.enum(['play_card', 'activate']),
    card: CardRef.nullable(),
    attack_plan: AttackPlan.nullable(),
    tactical_effect: TacticalEffect,
    affective_effect: AffectiveEffect.optional(),
    manipulation: ContestRecord.nullable().optional(),
    manipulation_outcome: ManipulationOutcome.nullable(),
    slipped: z.boolean(),
    /** A behaviour-shift read the attack plan made, scored over the next rounds. */
    prediction: z
      .object({ predicted: BehaviorShift, from_turn: z.number().int(), to_turn: z.number().int() })
      .nullable(),
    fizzled: z.boolean(),
    /** Card moves of face-down cards: only the owner sees which card went where. */
    private_moves: z.array(CardMove).optional(),
    rules_notes: z.array(z.string()),
  }),
  reaction_requested: z.object({ player_id: PlayerId, action_id: ActionId, attacker_player_id: PlayerId }),
  talk_finished: z.object({ player_id: PlayerId, statements: z.number().int(), forced: z.boolean() }),
  /**
   * One per resolve, always, whatever settled: which commitments settled (and so which speech was a
   * promise, threat, warning or bluff) is secret; only the public consequences are shown.
   */
  ledger_settled: z.object({
    settlements: z.array(Settlement).optional(),
    tactical_effect: TacticalEffect,
    affective_effect: AffectiveEffect.optional(),
  }),
  prediction_scored: z.object({
    predictor_player_id: PlayerId,
    target_player_id: PlayerId,
    predicted: z.string(),
    observed: z.array(z.string()),
    correct: z.boolean(),
    tempo_delta: z.number().int(),
  }),
  emotion_updated: z.object({
    player_id: PlayerId,
    reason: z.enum(['reflect', 'life_lost']),
    emotions: EmotionVector.optional(),
    trust: FloatMap.optional(),
    grievance: FloatMap.optional(),
    tell: Tell,
  }),
  exposure_updated: z.object({ exposure_delta: IntMap, rules_notes: z.array(z.string()) }),
  reflection_recorded: z.object({ player_id: PlayerId, record: ReflectionRecord.optional() }),
  life_lost: z.object({
    player_id: PlayerId,
    lives_left: z.number().int().min(0),
    resolve_after: z.number().int(),
    discarded: z.array(CardRef),
  }),
  player_eliminated: z.object({
    player_id: PlayerId,
    discarded: z.array(CardRef),
  }),
  game_ended: z.object({
    reason: z.enum(['last_seat_standing', 'all_eliminated', 'round_cap']),
    rounds: z.number().int(),
    placements: z.array(Placement),
  }),
} as const;

export type EventType = keyof typeof payloads;
export const EVENT_TYPES = Object.keys(payloads) as EventType[];
export type EventPayload<T extends EventType> = z.infer<(typeof payloads)[T]>;

const envelopeFields = {
  schema_version: z.string(),
  event_id: EventId,
  game_id: GameId,
  seq: z.number().int().min(1),
  turn: z.number().int().min(0),
  phase: Phase,
  ts: IsoTimestamp,
  visibility: Visibility,
  /** The PRNG state after this event, on events that drew randomness. Admin only. */
  rng: RngState.optional(),
  /** Keys a projection removed; lets a client tell "hidden" from "absent". */
  redacted: z.array(z.string()).optional(),
  /** Faces of the cards this event puts face up in public (the discard, a face-up arena slot): views name them from here. */
  faces: z.array(CardRef).optional(),
  /** For cards this event moves out of an arena: their index in the arena list just before the move (a face-down card shows no id). */
  slots: z.array(z.object({ card_id: CardId, slot: z.number().int().min(0) })).optional(),
  /** The tells this event changed (public: every view shows every seat's tell), so views can follow them. */
  tells: z.record(PlayerId, Tell).optional(),
  /**
   * Added by a seat's projection: the seat's own slice of hidden keys it may know of itself — its
   * own trust and grievance rows of an affective effect, and its own commitments that settled.
   */
  own: z
    .object({ player_id: PlayerId, trust_delta: FloatMap.optional(), grievance_delta: FloatMap.optional(), settlements: z.array(Settlement).optional() })
    .optional(),
};

const variants = (Object.keys(payloads) as EventType[]).map((type) =>
  z.object({ ...envelopeFields, type: z.literal(type), payload: payloads[type] }),
);

/** Seed 003 §6 envelope plus what a durable log needs (seq, visibility, rng). */
export const GameEvent = z.discriminatedUnion(
  'type',
  variants as unknown as [(typeof variants)[number], ...(typeof variants)[number][]],
);

type EnvelopeFields = { [K in keyof typeof envelopeFields]: z.infer<(typeof envelopeFields)[K]> };
export type GameEventOf<T extends EventType> = Omit<EnvelopeFields, 'rng' | 'redacted' | 'tells' | 'own' | 'faces' | 'slots'> & {
  faces?: CardRef[];
  slots?: { card_id: string; slot: number }[];
  rng?: RngState;
  redacted?: string[];
  tells?: Record<string, Tell>;
  own?: EnvelopeFields['own'];
  type: T;
  payload: EventPayload<T>;
};
export type GameEvent = { [T in EventType]: GameEventOf<T> }[EventType];
