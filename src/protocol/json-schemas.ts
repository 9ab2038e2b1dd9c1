import { z } from 'zod';
import { DECISION_SCHEMAS, LegalAction, TurnPlanRequest } from './agent-io.js';
import { ToolEvent, ToolInput } from './tool-events.js';

/** Where the generated files live, relative to the repository root. */
export const SCHEMAS_DIR = 'docs/schemas';

type JsonSchema = Record<string, unknown>;

/**
 * A file's schema: what an agent reads (`output`: defaults filled in, as the server sends it) or
 * what it may write (`input`: optional fields may be left out, the server fills their defaults).
 */
function schemaOf(
  name: string,
  title: string,
  description: string,
  schema: z.ZodType,
  io: 'input' | 'output',
): JsonSchema {
  const body = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as JsonSchema;
  const { $schema, ...rest } = body;
  return { $schema, $id: name, title, description, ...rest };
}

/**
 * JSON Schemas for every message of the agent protocol, generated from the zod schemas the server
 * validates with, so they cannot drift from the code: the stdin line, the request inside it, each
 * window's answer (the merged `decision` key), the stdout events, and one `legal_actions` entry.
 * File name → schema; `npm run docs:schemas` writes them to docs/schemas/, and a test checks that
 * the checked-in files are current.
 *
 * @example
 * agentProtocolSchemas()['decision.action.schema.json'] // the TurnPlanResponse an action window expects
 */
export function agentProtocolSchemas(): Record<string, JsonSchema> {
  const files: Record<string, JsonSchema> = {
    'tool-input.schema.json': schemaOf(
      'tool-input.schema.json',
      'ToolInput',
      "The one JSON line an agent reads on stdin: requestId, tool (the agent name), operation (the decision window) and input (the seat's TurnPlanRequest, see turn-plan-request.schema.json).",
      ToolInput,
      'output',
    ),
    'turn-plan-request.schema.json': schemaOf(
      'turn-plan-request.schema.json',
      'TurnPlanRequest',
      "The `input` of every invocation: the seat's private view, the public world, the legal actions of this window and the constraints.",
      TurnPlanRequest,
      'output',
    ),
    'legal-action.schema.json': schemaOf(
      'legal-action.schema.json',
      'LegalAction',
      'One entry of `legal_actions`, discriminated by `kind`.',
      LegalAction,
      'output',
    ),
    'tool-event.schema.json': schemaOf(
      'tool-event.schema.json',
      'ToolEvent',
      'One NDJSON line an agent writes on stdout: log, state_patch, asset, ui_event, error or done.',
      ToolEvent,
      'input',
    ),
  };
  for (const [window, schema] of Object.entries(DECISION_SCHEMAS)) {
    const name = `decision.${window}.schema.json`;
    files[name] = schemaOf(
      name,
      `Decision (${window})`,
      `The answer of a \`${window}\` window: the value of the \`decision\` key after all state_patch events are merged. Fields with defaults may be left out.`,
      schema,
      'input',
    );
  }
  return files;
}

/** A schema file's text: two-space JSON and a final newline, so regeneration is byte-stable. */
export const schemaFileText = (schema: JsonSchema): string =>
  `${JSON.stringify(schema, null, 2)}\n`;
