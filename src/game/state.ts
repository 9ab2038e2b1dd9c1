import type {
  AttackPlan,
  EmotionDelta,
  EmotionName,
  EmotionVector,
  KineticIntent,
  Phase,
  Placement,
  RngState,
  SecretPlan,
  SpeechAct,
  Window,
  ActionPayload,
  BehaviorShift,
  ManipulationOutcome,
} from '../protocol/index.js';
import type { RulesConfig } from './rules.js';

export type PlayerId = string;
export type CardId = string;

/** A seat's full state, private parts included. Views decide who sees what. */
export type PlayerState = {
  player_id: PlayerId;
  display_name: string;
  seat: number;
  alive: boolean;
  lives: number;
  resolve: number;
  tempo: number;
  exposure: number;
  /** Oldest first: the hand cap discards from the front. */
  hand: CardId[];
  secret_plan: SecretPlan | null;
  emotions: EmotionVector;
  baseline: EmotionVector;
  trust: Record<PlayerId, number>;
  grievance: Record<PlayerId, number>;
  /** Emotion impacts of this round, landing at reflect. */
  impacts: EmotionDelta;
  social: EmotionDelta;
  /** Set this round, effective next round. */
  next_lockout: boolean;
  next_forced_line: PlayerId | null;
  /** Effective this round. */
  locked_out: boolean;
  forced_line: PlayerId | null;
  /** False Tell: the next manipulation against this seat loses power. */
  false_tell_charge: boolean;
  eliminated_turn: number | null;
  /** Memory notes from this seat's reflections (last few). */
  notes: string[];
  /** Behaviour-shift reads this seat made that were scored, and how many were right. */
  reads_scored: number;
  reads_correct: number;
};

export type ArenaEntry = {
  card_id: CardId;
  owner: PlayerId;
  face_down: boolean;
  rounds_left: number | null;
  countdown: number | null;
  chosen_emotion: EmotionName | null;
};

/** An action submitted in the action window, waiting for resolve. */
export type StackEntry = {
  action_id: string;
  player_id: PlayerId;
  kind: 'play_card' | 'activate';
  card_id: CardId;
  payload: ActionPayload;
  attack_plan: AttackPlan | null;
  /** The seat's 1st or 2nd action this round. */
  index: number;
  reaction_card_id: CardId | null;
};

/** Activations leave their card in the arena until resolve; plays move it onto the stack. */
export const stackHoldsCard = (e: StackEntry): boolean => e.kind === 'play_card';

export type Commitment = {
  commitment_id: string;
  kind: SpeechAct;
  speaker: PlayerId;
  target: PlayerId | null;
  turn: number;
  public: boolean;
};

export type Prediction = {
  predictor: PlayerId;
  target: PlayerId;
  predicted: BehaviorShift;
  from_turn: number;
  to_turn: number;
};

export type SpeechRecord = {
  player_id: PlayerId;
  channel: 'public' | 'private';
  target_player_id: PlayerId | null;
  text: string;
  speech_act: SpeechAct;
};

/** What each seat did in one round: the material for behaviour classification. */
export type RoundRecord = {
  turn: number;
  attacks: Record<PlayerId, PlayerId[]>;
  plays: Record<PlayerId, string[]>;
  slips: Record<PlayerId, number>;
  speeches: Record<PlayerId, number>;
  reactions: Record<PlayerId, number>;
  actions: Record<PlayerId, number>;
  /** Overreach plays, second actions at exposure ≥ 4, slips. */
  reckless: Record<PlayerId, number>;
  kinetic: Record<PlayerId, KineticIntent[]>;
  outcomes: Record<PlayerId, ManipulationOutcome[]>;
};

/** The decision window the engine is waiting on. */
export type WindowState = {
  window: Window;
  /** Seats still to answer, in order; sequential windows ask only the first. */
  queue: PlayerId[];
  sequential: boolean;
  /** Action window: actions the current seat has taken this round. */
  taken: number;
  /** Rejections of the current decision (reprompt once, then fall back). */
  rejections: number;
  last_rejection: { code: string; message: string } | null;
  /** Reaction window: the attack being answered; and the action seat to return to. */
  reacting_to: string | null;
};

export type GameState = {
  schema_version: string;
  game_id: string;
  seed: number;
  status: 'setup' | 'running' | 'done';
  turn: number;
  phase: Phase;
  seq: number;
  ts: string;
  rules: RulesConfig;
  players: PlayerState[];
  /** Seat configuration until the game is dealt. */
  seat_configs: { display_name?: string | undefined; baseline?: Partial<EmotionVector> | undefined }[];
  base_order: PlayerId[];
  initiative_order: PlayerId[];
  /** card_id → catalog name, dealt at random at game start. */
  cards: Record<CardId, string>;
  /** Top first. */
  deck: CardId[];
  discard: CardId[];
  arena: ArenaEntry[];
  stack: StackEntry[];
  ledger: Commitment[];
  predictions: Prediction[];
  speech: SpeechRecord[];
  revealed_plans: Record<PlayerId, SecretPlan>;
  /** This round's record and the previous ones still needed by open predictions. */
  rounds: RoundRecord[];
  window: WindowState | null;
  /** The action window, parked while a reaction is asked for. */
  suspended: WindowState | null;
  rng: RngState;
  placements: Placement[] | null;
  /** Counters for deterministic ids. */
  next_action: number;
  next_commitment: number;
};
