import { DECISION_SCHEMAS, JsonObject, checkJsonBounds, deepMerge, formatIssues, type Window } from '../../protocol/index.js';

/** Memory above this size is refused (kept as it was) so one agent cannot bloat every request. */
export const MAX_MEMORY_BYTES = 64 * 1024;

export type Answer = {
  /** The merged state's `decision`, as sent (the engine validates it again and may reprompt). */
  decision: unknown;
  /** Issues of the decision against the window's schema; empty when it is valid or absent. */
  validation: string[];
  memory: JsonObject;
  problems: string[];
};

/**
 * Reads an invocation's merged state: `decision` is the window's answer, `memory` is patched onto
 * the seat's memory (so an agent may update a part of it; null deletes a key).
 */
export function readAnswer(state: JsonObject, window: Window, memory: JsonObject): Answer {
  const problems: string[] = [];
  const decision = state['decision'];
  let validation: string[] = [];
  if (decision === undefined) problems.push('the merged state_patch has no "decision"');
  else {
    const parsed = DECISION_SCHEMAS[window].safeParse(decision);
    if (!parsed.success) validation = formatIssues(parsed.error.issues).split('; ');
  }
  let next = memory;
  const patch = state['memory'];
  if (patch !== undefined) {
    const obj = JsonObject.safeParse(patch);
    const bounds = checkJsonBounds(patch);
    if (bounds) problems.push(`"memory" refused (${bounds.code}: ${bounds.message}); memory kept as it was`);
    else if (!obj.success) problems.push('"memory" must be a JSON object; memory kept as it was');
    else {
      const merged = deepMerge(memory, obj.data);
      if (JSON.stringify(merged).length > MAX_MEMORY_BYTES) problems.push(`memory over ${MAX_MEMORY_BYTES} bytes; memory kept as it was`);
      else next = merged;
    }
  }
  return { decision, validation, memory: next, problems };
}
