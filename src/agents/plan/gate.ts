import type { ToolInvocation, ToolResult } from '../../protocol/index.js';
import type { PlanStop } from './plan-budget.js';
import type { ToolRecord } from './run-tool.js';

/** Why a tool is not run at all. */
export type Skip = {
  reason: 'dependency' | 'skill_disabled' | 'plan_stopped';
  error: string;
  record: ToolRecord;
  data: Record<string, string>;
};

export type GateInput = {
  tool: ToolInvocation;
  /** Records of every dependency (all settled by now). */
  records: ReadonlyMap<string, ToolRecord>;
  toolsById: ReadonlyMap<string, ToolInvocation>;
  /** tool.skill ?? the plan's own skill. */
  skill: string | undefined;
  disabledSkills: readonly string[];
  stop: PlanStop | null;
};

/**
 * Decides, once its dependencies have settled, whether a tool runs. It does not when the plan has
 * stopped; when a dependency that had to succeed did not (a required tool that failed, or any tool
 * already skipped for that reason — so a required failure skips its whole downstream, optional
 * tools included); or when its skill is disabled. A failed optional dependency lets it run: it
 * receives null for that dependency.
 *
 * @example
 * gate({ tool, records, toolsById, skill: 'oracle', disabledSkills: ['oracle'], stop: null })?.error; // 'skill disabled'
 */
export function gate(input: GateInput): Skip | null {
  const { tool, stop } = input;
  const id = tool.toolId;
  if (stop) {
    const error = `${stop.message} before it started`;
    return skip(tool, {
      reason: 'plan_stopped',
      error,
      cause: `tool "${id}" was not run: ${error}`,
    });
  }
  for (const dep of tool.dependencies) {
    const record = input.records.get(dep);
    if (!record || record.result.state === 'completed') continue;
    if (!input.toolsById.get(dep)?.required && !record.propagated) continue;
    const error = `dependency "${dep}" ${WHAT_HAPPENED[record.result.state]}`;
    return skip(tool, { reason: 'dependency', error, cause: null, data: { dependency: dep } });
  }
  const skill = input.skill;
  if (skill !== undefined && input.disabledSkills.includes(skill)) {
    const cause = `tool "${id}" was not run: its skill "${skill}" is disabled`;
    return skip(tool, {
      reason: 'skill_disabled',
      error: 'skill disabled',
      cause,
      data: { skill },
    });
  }
  return null;
}

const WHAT_HAPPENED: Record<ToolResult['state'], string> = {
  pending: 'never ran',
  executing: 'never finished',
  completed: 'completed',
  failed: 'failed',
  timeout: 'timed out',
  skipped: 'was skipped',
};

/** A skip for a dependency failure is a consequence (propagated), the others are causes. */
function skip(
  tool: ToolInvocation,
  why: {
    reason: Skip['reason'];
    error: string;
    cause: string | null;
    data?: Record<string, string>;
  },
): Skip {
  const result: ToolResult = {
    toolId: tool.toolId,
    ok: false,
    state: 'skipped',
    executionTimeMs: 0,
    retryCount: 0,
    error: why.error,
    output: {},
    events: [],
  };
  const propagated = why.reason === 'dependency';
  return {
    reason: why.reason,
    error: why.error,
    record: { result, propagated, cause: why.cause },
    data: why.data ?? {},
  };
}
