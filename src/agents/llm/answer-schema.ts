import { z } from 'zod';
import { DECISION_SCHEMAS, type Window } from '../../protocol/index.js';
import type { AnswerSchema } from '../../providers/types.js';

/** Keys an LLM may add beside its answer: memory to keep, and a one-line summary of its reasoning. */
export const EXTRA_KEYS = ['memory', 'reasoning'] as const;

const cache = new Map<Window, AnswerSchema>();

/**
 * The JSON schema a model must answer a window with: the window's decision schema (the one the
 * engine validates with), plus optional `memory` (an object patched onto the seat's memory) and
 * `reasoning` (a short summary for the trace, never raw chain-of-thought).
 */
export function answerSchema(window: Window): AnswerSchema {
  const hit = cache.get(window);
  if (hit) return hit;
  const base = z.toJSONSchema(DECISION_SCHEMAS[window], { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _drop, ...schema } = base;
  const properties = { ...(schema['properties'] as Record<string, unknown>), memory: { type: 'object', description: 'what to remember next time (patched onto your memory; null deletes a key)' }, reasoning: { type: 'string', maxLength: 300, description: 'one or two sentences on why' } };
  const out: AnswerSchema = { name: `tiltyard_${window}`, description: `Your answer for the ${window} window.`, schema: { ...schema, properties } };
  cache.set(window, out);
  return out;
}

/** Splits a model's JSON into the decision and the extras. */
export function splitAnswer(json: unknown): { decision: unknown; memory: unknown; reasoning: string | null } {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { decision: json, memory: undefined, reasoning: null };
  const { memory, reasoning, ...decision } = json as Record<string, unknown>;
  return { decision, memory, reasoning: typeof reasoning === 'string' ? reasoning.slice(0, 300) : null };
}
