import { z } from 'zod';

/**
 * The NDJSON tool protocol (seeds 001 and 000): every agent, built-in or external, answers a
 * decision window with these events. Envelope `version` is "0"; unknown extra fields are allowed
 * and ignored (seed 001 §8), so every event schema is loose.
 */
export const TOOL_PROTOCOL_VERSION = '0';

export const TOOL_EVENT_TYPES = ['log', 'state_patch', 'asset', 'ui_event', 'error', 'done'] as const;
export type ToolEventType = (typeof TOOL_EVENT_TYPES)[number];

/** A JSON object (not null, not an array, not a primitive). */
export const JsonObject = z.record(z.string(), z.unknown());
export type JsonObject = z.infer<typeof JsonObject>;

const envelope = {
  version: z.literal(TOOL_PROTOCOL_VERSION, { error: 'version must be "0"' }),
  requestId: z.string().optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
};
const nonEmpty = z.string().min(1, 'must be a non-empty string');

export const LogEvent = z.looseObject({
  ...envelope,
  type: z.literal('log'),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  message: nonEmpty,
  fields: JsonObject.optional(),
});

export const StatePatchEvent = z.looseObject({
  ...envelope,
  type: z.literal('state_patch'),
  patch: JsonObject,
});

/** type/subtype with RFC 6838 token characters, parameters allowed (`text/plain; charset=utf-8`). */
const MIME = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$/;

export const AssetEvent = z.looseObject({
  ...envelope,
  type: z.literal('asset'),
  assetId: nonEmpty,
  kind: nonEmpty,
  mediaType: z.string().regex(MIME, 'must be a MIME type such as image/png'),
  path: nonEmpty,
  metadata: JsonObject.optional(),
});

export const UiEvent = z.looseObject({
  ...envelope,
  type: z.literal('ui_event'),
  event: nonEmpty,
  payload: JsonObject.optional(),
});

export const ErrorEvent = z.looseObject({
  ...envelope,
  type: z.literal('error'),
  errorCode: nonEmpty,
  errorMessage: nonEmpty,
  details: JsonObject.optional(),
});

export const DoneEvent = z.looseObject({
  ...envelope,
  type: z.literal('done'),
  ok: z.boolean(),
  summary: z.string().optional(),
});

export const ToolEvent = z.discriminatedUnion('type', [LogEvent, StatePatchEvent, AssetEvent, UiEvent, ErrorEvent, DoneEvent]);
export type LogEvent = z.infer<typeof LogEvent>;
export type StatePatchEvent = z.infer<typeof StatePatchEvent>;
export type AssetEvent = z.infer<typeof AssetEvent>;
export type UiEvent = z.infer<typeof UiEvent>;
export type ErrorEvent = z.infer<typeof ErrorEvent>;
export type DoneEvent = z.infer<typeof DoneEvent>;
export type ToolEvent = z.infer<typeof ToolEvent>;

/**
 * What a tool reads on stdin (seed 001 §6). For agents: `tool` is the agent's name, `operation`
 * the decision window and `input` the seat's TurnPlanRequest. `config` carries the skill's
 * resolved configuration and `workDir` the directory its assets must stay in; tools ignore fields
 * they do not know.
 */
export const ToolInput = z.looseObject({
  requestId: nonEmpty,
  tool: nonEmpty,
  operation: nonEmpty,
  input: JsonObject,
  config: JsonObject.optional(),
  workDir: z.string().optional(),
});
export type ToolInput = z.infer<typeof ToolInput>;
