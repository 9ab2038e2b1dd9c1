import { z } from 'zod';
import type { GameState } from '../game/index.js';
import { IsoTimestamp, PlayerId, type Placement } from '../protocol/index.js';

/**
 * `aborted`: its log and its agents disagree (it cannot be resumed); `failed`: its runner failed
 * MAX_RUN_FAILURES times in a row without committing a step (`failure_reason` says why); neither
 * is resumed again.
 */
export const GAME_STATUSES = ['created', 'running', 'ended', 'aborted', 'failed'] as const;
export const GameStatus = z.enum(GAME_STATUSES);
export type GameStatus = z.infer<typeof GameStatus>;

/** Who sits where: the agent's name as the registry or skill folder knows it. */
export const SeatRecord = z.object({
  seat: z.number().int().min(0),
  player_id: PlayerId,
  agent: z.string().min(1),
  display_name: z.string().optional(),
  /**
   * A built-in seat's behaviour version when the game was created (`trickster@2`, AGENT_VERSIONS);
   * absent for other agents and in games stored before versions were recorded.
   */
  agent_version: z.string().max(64).optional(),
});
export type SeatRecord = z.infer<typeof SeatRecord>;

/** A row of `games`, as the store hands it out (snake_case, ISO timestamps). */
export type GameRecord = {
  game_id: string;
  seed: number;
  config: Record<string, unknown>;
  rules_version: string;
  status: GameStatus;
  seats: SeatRecord[];
  last_seq: number;
  last_hash: string;
  placements: Placement[] | null;
  /** What the server runs the game with besides its config ({} when created outside a server). */
  options: Record<string, unknown>;
  /** Runner attempts in a row that failed before committing a step (0 once one commits). */
  run_failures: number;
  /** Why the last failed runner attempt failed; null when none has. */
  failure_reason: string | null;
  /** Times the game was put back in play after it failed (0: never). */
  attempt: number;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
};

/**
 * One decision an agent sent for a window, whatever became of it. `raw` is what it sent
 * (undefined when it sent nothing), `validated` what validation made of it (null if refused).
 * Keyed by (game, seq_before, player_id, attempt): recording the same one twice is a no-op.
 */
export const ActionRecord = z.object({
  seq_before: z.number().int().min(0),
  player_id: PlayerId,
  attempt: z.number().int().min(1).default(1),
  turn: z.number().int().min(0),
  phase: z.string(),
  window: z.string(),
  raw: z.unknown(),
  validated: z.unknown().optional(),
  accepted: z.boolean(),
  rejection_code: z.string().nullable().optional(),
  ts: IsoTimestamp,
});
export type ActionRecord = z.input<typeof ActionRecord>;

/** What append did: the head after it, and how many events it stored (0 for a replayed batch). */
export type AppendResult = {
  last_seq: number;
  last_hash: string;
  appended: number;
  snapshot_seq: number | null;
};

export type AppendOptions = {
  /**
   * The engine state after these events. Used only when the batch crosses a snapshot boundary;
   * without it the store folds the events onto stateAt(expectedSeq) itself.
   */
  state?: GameState;
  /** Decisions to record in the same transaction (see ActionRecord). */
  actions?: readonly ActionRecord[];
};

export const ListGamesFilter = z.object({
  status: z.union([GameStatus, z.array(GameStatus)]).optional(),
  /** Only this tournament's games; null: only games outside every tournament. */
  tournament_id: z.string().nullable().optional(),
  /** Only games with a seat of this agent (SeatRecord.agent). */
  agent: z.string().optional(),
  created_after: IsoTimestamp.optional(),
  created_before: IsoTimestamp.optional(),
});
export type ListGamesFilter = z.input<typeof ListGamesFilter>;

export const Page = z.object({
  limit: z.number().int().min(1).max(500).default(50),
  /** The `next_cursor` of the previous page. */
  cursor: z.string().optional(),
});
export type Page = z.input<typeof Page>;

export type GamePage = { games: GameRecord[]; next_cursor: string | null };
