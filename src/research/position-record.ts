import { z } from 'zod';
import { GameId, PlayerId, TurnPlanRequest } from '../protocol/index.js';
import { draft7Schema } from './draft7-schema.js';

/** Bumped when a field changes meaning or goes away (and the shipped bank with it); new optional fields keep it. */
export const POSITION_VERSION = 1;

/**
 * One legal move of a position and its value. The key names the move: `pass`,
 * `play_card:<card name>` or `activate:<card_id>`, and for an attack `>` its target and `/` its
 * kinetic intent (`play_card:Needle>plr_3/lockout`). The rest of an answer (emotional intent,
 * manipulation plan, channel, a Whisper's named seat, a False Tell's emotion) is the move's
 * framing: the bank plays every move with one fixed framing (moveDecision); eval scores an agent's
 * exact answer, framing included, in the same worlds (scoreAnswer).
 */
export const PositionOption = z.object({
  key: z.string(),
  /** The expert's rollout value of the move: the mean over the sampled worlds of the seat's standing against the table's. */
  value: z.number(),
});
export type PositionOption = z.infer<typeof PositionOption>;

/**
 * One decision point of a stored game, as `tiltyard positions extract` writes it (one JSONL line):
 * the request exactly as the seat's agent got it (its own view only) and every legal move scored by
 * the expert's rollouts. The single source of truth of docs/schemas/position-record.schema.json.
 *
 * @example PositionRecord.parse(JSON.parse(line)).options.find((o) => o.key === record.best)
 */
export const PositionRecord = z.object({
  position_version: z.literal(POSITION_VERSION),
  /** `<game_id>:<seq>`: unique in a bank. */
  position_id: z.string(),
  game_id: GameId,
  seed: z.number().int(),
  rules_version: z.string(),
  /** The game's seq when the engine asked. */
  seq: z.number().int().min(0),
  turn: z.number().int().min(0),
  player_id: PlayerId,
  /** Seat index, 0-based. */
  seat: z.number().int().min(0),
  /** The agent that sat there in the stored game. */
  agent: z.string(),
  /** Always `action`: the window where the expert searches (full windows, first attempt). */
  window: z.literal('action'),
  request: TurnPlanRequest,
  /** Every legal move, in the order of the request's legal actions (pass last). */
  options: z.array(PositionOption).min(2),
  /** The key of the best-valued move (the first of equals). */
  best: z.string(),
  /** The key of the move the seat made in the stored game (null: none matched, or it failed). */
  played: z.string().nullable(),
  /**
   * How the values were computed: worlds sampled (and kept), the rollout horizon in rounds, the
   * seed, and which worlds were kept (their indices, written only when some were dropped: absent,
   * all were, or the bank predates the field). Eval scores an agent's exact answer in the same worlds.
   */
  scoring: z.object({
    worlds: z.number().int().min(1),
    kept: z.number().int().min(1),
    horizon: z.number().int().min(0),
    seed: z.number().int(),
    kept_worlds: z.array(z.number().int().min(0)).optional(),
  }),
});
export type PositionRecord = z.infer<typeof PositionRecord>;

/** The JSON Schema of a position record, generated from PositionRecord (draft7Schema). */
export const positionRecordJsonSchema = (): Record<string, unknown> =>
  draft7Schema(PositionRecord, 'position-record.schema.json', 'PositionRecord', 'One decision point of a stored game with every legal move scored by the expert, as `tiltyard positions extract` writes it: one JSONL line.');
