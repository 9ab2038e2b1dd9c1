import {
  deepMerge,
  type JsonObject,
  type ToolInvocation,
  type ToolResult,
} from '../../protocol/index.js';
import type { ToolRecord } from './run-tool.js';

export type PlanSummary = {
  toolResults: ToolResult[];
  failedTools: string[];
  skippedTools: string[];
  success: boolean;
  failureReason: string | null;
  state: JsonObject;
};

/**
 * Folds the tools' records, in topological order, into the plan's verdict. The plan succeeds when
 * every required tool completed; its failure reason is the cause recorded by the first required
 * tool (in that order) that failed on its own account, so parallel runs explain themselves
 * alike. The state is every completed tool's output deep-merged in the same order.
 *
 * @example
 * summarize(order, records).failureReason; // 'tool "look" failed after 4 attempts: protocol/exit_code: …'
 */
export function summarize(
  order: readonly ToolInvocation[],
  records: ReadonlyMap<string, ToolRecord>,
): PlanSummary {
  const toolResults: ToolResult[] = [];
  const failedTools: string[] = [];
  const skippedTools: string[] = [];
  let success = true;
  let failureReason: string | null = null;
  let state: JsonObject = {};
  for (const tool of order) {
    const record = records.get(tool.toolId);
    // Unreachable once dispatch has run; kept so a scheduler bug shows up as a failed tool.
    const result = record?.result ?? unsettled(tool.toolId);
    toolResults.push(result);
    if (result.state === 'completed') state = deepMerge(state, result.output);
    else if (result.state === 'skipped') skippedTools.push(tool.toolId);
    else failedTools.push(tool.toolId);
    if (result.state === 'completed' || !tool.required) continue;
    success = false;
    if (failureReason === null && record && !record.propagated) failureReason = record.cause;
  }
  if (!success && failureReason === null)
    failureReason = 'the plan failed: a required tool did not complete';
  return { toolResults, failedTools, skippedTools, success, failureReason, state };
}

function unsettled(toolId: string): ToolResult {
  return {
    toolId,
    ok: false,
    state: 'failed',
    executionTimeMs: 0,
    retryCount: 0,
    error: 'never settled (executor bug)',
    output: {},
    events: [],
  };
}
