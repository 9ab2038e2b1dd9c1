import { z } from 'zod';
import { GameId, PlayerId, TurnPlanRequest, Window } from '../protocol/index.js';
import { draft7Schema } from './draft7-schema.js';
import { positionRecordJsonSchema } from './position-record.js';

/** Bumped when a field changes meaning or goes away; new optional fields keep it. */
export const EXPORT_VERSION = 1;

/**
 * A log entry as the deciding seat was shown it (the engine's projection for that seat): keys
 * hidden from the seat are dropped and listed in `redacted`, so the payload is open here.
 */
export const SeatEvent = z
  .object({
    seq: z.number().int().min(1),
    turn: z.number().int().min(0),
    phase: z.string(),
    type: z.string(),
    ts: z.string(),
    payload: z.record(z.string(), z.unknown()),
    redacted: z.array(z.string()).optional(),
  })
  .loose();

/** What the seat's agent runtime recorded about the decision (agent_traces), when it was traced. */
export const DecisionTraceSummary = z.object({
  ok: z.boolean(),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** Where the answer came from when not from the agent: `engine`, or `agent:<name>` (a fallback agent). */
  fallback: z.string().nullable(),
  /** Calls or attempts beyond the first. */
  retries: z.number().int().min(0),
  /** Why the answer did not match the window's schema (zod issues, or an LLM answer-check's problems). */
  validation: z.array(z.string()),
  /** An LLM seat was sent one repair turn quoting what was wrong with its first answer. */
  repaired: z.boolean(),
  /** The answer-check rules that fired (LLM seats: truncated, schema, illegal…), in order. */
  rules: z.array(z.string()),
  latency_ms: z.number().min(0),
  tokens: z.number().min(0).nullable(),
  cost_usd: z.number().min(0).nullable(),
});
export type DecisionTraceSummary = z.infer<typeof DecisionTraceSummary>;

/** The decision's immediate effects, and where its seat ended up. */
export const DecisionOutcome = z.object({
  /** The events the decision's step emitted, as the seat's view shows them. */
  events: z.array(SeatEvent),
  /** The engine refused the answer (a reprompt follows where the rules allow one, else pass). */
  rejected: z.boolean(),
  lives_before: z.number().int(),
  lives_after: z.number().int(),
  resolve_before: z.number().int(),
  resolve_after: z.number().int(),
  alive_after: z.boolean(),
  /** The seat's final placement (1 = winner); null while its game has not ended. */
  final_placement: z.number().int().min(1).nullable(),
});
export type DecisionOutcome = z.infer<typeof DecisionOutcome>;

/**
 * One decision of one seat in one stored game, as `tiltyard export` writes it (a JSONL line, or a
 * CSV row with the nested parts as JSON). The single source of truth for the export's JSON Schema
 * (docs/schemas/export-record.schema.json).
 *
 * @example ExportRecord.parse(JSON.parse(line)).request.legal_actions.length
 */
export const ExportRecord = z.object({
  export_version: z.literal(EXPORT_VERSION),
  game_id: GameId,
  seed: z.number().int(),
  rules_version: z.string(),
  /** The game plays compact windows (one decision per seat per round). */
  compact: z.boolean(),
  player_id: PlayerId,
  /** Seat index, 0-based (player plr_N sits at N − 1). */
  seat: z.number().int().min(0),
  /** The seat's agent spec (balanced, skill:…, llm:provider:model). */
  agent: z.string(),
  /** `human` when a person answered for the seat (agent `human` / `human:<name>`), else `agent` (a program of any kind). */
  agent_kind: z.enum(['human', 'agent']),
  /** The game's seq when the engine asked (the decision's events follow it). */
  seq: z.number().int().min(0),
  turn: z.number().int().min(0),
  phase: z.string(),
  window: Window,
  /** 1 for the first answer to a request, 2 for the answer to its reprompt. */
  attempt: z.number().int().min(1),
  /** The seat's request exactly as its agent got it: its own view only, its memory handed back. */
  request: TurnPlanRequest,
  /** The agent sent an answer (false: nothing, or a failure; the engine's fallback applied). */
  answered: z.boolean(),
  /** The answer as sent (null when none was). */
  decision: z.unknown(),
  accepted: z.boolean(),
  /** The engine's rejection code when it refused the answer. */
  rejection_code: z.string().nullable(),
  /** The reasoning the agent gave with its answer (LLM seats), when traced. */
  reasoning: z.string().nullable(),
  /** The runtime's trace of the decision; null when the game was stored without traces (whole built-in games). */
  trace: DecisionTraceSummary.nullable(),
  /**
   * Win probability added: the seat's chance to win after this decision's own events minus before
   * them (the omniscient model of src/eval, folded at every event; chance events such as draws and
   * contest rolls are not the decision's). Null while the game has not ended, and for an answer
   * that was refused and asked again (the answer that counted carries the decision's WPA).
   */
  wpa: z.number().nullable(),
  outcome: DecisionOutcome,
});
export type ExportRecord = z.infer<typeof ExportRecord>;

/** The JSON Schema of an export record, generated from ExportRecord (draft7Schema). */
export const exportRecordJsonSchema = (): Record<string, unknown> =>
  draft7Schema(ExportRecord, 'export-record.schema.json', 'ExportRecord', 'One decision of one seat in a stored game, as `tiltyard export` writes it: one JSONL line, or one CSV row whose nested parts are JSON strings.');

/**
 * The research tools' JSON Schemas by file name, written to docs/schemas/ beside the agent
 * protocol's by `npm run docs:schemas` (a test checks the checked-in files are current).
 */
export const researchSchemas = (): Record<string, Record<string, unknown>> => ({ 'export-record.schema.json': exportRecordJsonSchema(), 'position-record.schema.json': positionRecordJsonSchema() });
