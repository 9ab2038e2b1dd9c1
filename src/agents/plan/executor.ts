import { availableParallelism } from 'node:os';
import type {
  ExecutionResult,
  JsonObject,
  PlanJson,
  ToolInput,
  ToolInvocation,
  ToolResult,
} from '../../protocol/index.js';
import { abortableSleep } from '../../lib/abortable-sleep.js';
import { gate } from './gate.js';
import { checkGraph, type PlanError, topologicalOrder } from './graph.js';
import { startBudget } from './plan-budget.js';
import type { PlanContext, PlanPorts } from './ports.js';
import { summarize } from './result.js';
import { runWithRetries, type ToolEnv, type ToolRecord } from './run-tool.js';
import { dispatch } from './schedule.js';
import { createTrace, type TraceRecorder } from './trace.js';

export type { PlanContext, PlanPorts } from './ports.js';

const DEFAULT_STOP_GRACE_MS = 5_000;

/**
 * Runs a plan's tools as a dependency graph and reports everything that happened (seed 002 §3–§4,
 * §8): tools run in topological order, one at a time unless the plan is `parallel`, where async
 * tools share up to `concurrency` slots (never more than the cores) and a non-async tool runs
 * alone. Failed attempts are retried with exponential backoff; a required tool's final failure
 * skips its dependents and fails the plan, an optional one's hands them null. The plan timeout
 * aborts whatever is running.
 *
 * Never throws for anything a plan or a tool does: a cyclic or inconsistent graph, crashing,
 * hanging or lying tools, a port that rejects — all end as a failed ExecutionResult.
 *
 * @example
 * const result = await executePlan(plan, { runTool }, { operation: 'main_action', input: request, skill: 'council' });
 * if (!result.success && result.canReplan) regenerate({ previous: result });
 */
export async function executePlan(
  plan: PlanJson,
  ports: PlanPorts,
  context: PlanContext,
): Promise<ExecutionResult> {
  const now = ports.now ?? (() => performance.now());
  const trace = createTrace(ports.clock ?? (() => new Date().toISOString()), now);
  const started = now();
  const graphError = checkGraph(plan.tools);
  if (graphError) return rejected(plan, graphError, trace, now() - started);

  const toolsById = new Map(plan.tools.map((t) => [t.toolId, t]));
  const order = topologicalOrder(plan.tools).map((id) => toolsById.get(id)!);
  const limit = plan.parallel ? concurrencyLimit(ports.concurrency) : 1;
  const budget = startBudget(plan.timeoutMs, now, context.signal);
  const env: ToolEnv = {
    // Called through the ports object so a port written as a class keeps its `this`.
    runTool: (tool, input, opts) => ports.runTool(tool, input, opts),
    sleep: ports.sleep ? (ms, signal) => ports.sleep!(ms, signal) : abortableSleep,
    now,
    stopGraceMs: ports.stopGraceMs ?? DEFAULT_STOP_GRACE_MS,
    budget,
    trace,
  };
  trace.record('plan_started', null, {
    planId: plan.requestId,
    operation: context.operation,
    agent: context.tool ?? null,
    skill: context.skill ?? null,
    order: order.map((t) => t.toolId),
    parallel: plan.parallel,
    concurrency: limit,
    timeoutMs: plan.timeoutMs,
    disabledSkills: plan.disabledSkills,
    generationAttempt: plan.metadata.generationAttempt,
  });

  const records = new Map<string, ToolRecord>();
  const settle = async (tool: ToolInvocation): Promise<ToolRecord> => {
    const skill = tool.skill ?? context.skill;
    const skip = gate({
      tool,
      records,
      toolsById,
      skill,
      disabledSkills: plan.disabledSkills,
      stop: budget.stop(),
    });
    if (skip) {
      trace.record('tool_skipped', tool.toolId, {
        reason: skip.reason,
        error: skip.error,
        ...skip.data,
      });
      return skip.record;
    }
    const dependencies: JsonObject = {};
    const dependencyStates: JsonObject = {};
    for (const dep of tool.dependencies) {
      const result = records.get(dep)?.result;
      dependencies[dep] = result?.state === 'completed' ? result.output : null;
      dependencyStates[dep] = result?.state ?? null;
    }
    const inputFor = (attempt: number): ToolInput => ({
      requestId: `${plan.requestId}/${tool.toolId}#${attempt}`,
      tool: tool.toolId,
      operation: context.operation,
      input: { ...context.input, params: tool.input, dependencies },
    });
    return runWithRetries(env, tool, inputFor, dependencyStates);
  };

  try {
    await dispatch({
      order,
      parallel: plan.parallel,
      limit,
      settled: (id) => records.has(id),
      start: async (tool) => {
        records.set(tool.toolId, await settle(tool));
      },
      onDependencyWait: (tool, waitingFor) =>
        trace.record('dependency_wait', tool.toolId, { waitingFor }),
    });
  } finally {
    budget.dispose();
  }

  const summary = summarize(order, records);
  const cancelled = budget.stop()?.cancelled ?? false;
  const executionTimeMs = now() - started;
  const canReplan = !summary.success && !cancelled;
  trace.record('plan_finished', null, {
    success: summary.success,
    durationMs: executionTimeMs,
    failedTools: summary.failedTools,
    skippedTools: summary.skippedTools,
    failureReason: summary.failureReason,
    canReplan,
  });
  return {
    planId: plan.requestId,
    success: summary.success,
    narrative: plan.narrative,
    executionTimeMs,
    toolResults: summary.toolResults,
    failedTools: summary.failedTools,
    skippedTools: summary.skippedTools,
    generationMetadata: plan.metadata,
    canReplan,
    failureReason: summary.failureReason,
    state: summary.state,
    trace: trace.entries,
  };
}

/**
 * Async tools in flight at once: the port's wish, clamped to [1, cores] since a plan's tools are
 * processes competing for the same CPUs as the game.
 */
function concurrencyLimit(wanted: number | undefined): number {
  const cores = Math.max(1, availableParallelism());
  if (wanted === undefined || !Number.isFinite(wanted)) return cores;
  return Math.min(cores, Math.max(1, Math.floor(wanted)));
}

/** A graph that cannot run (cycle, duplicate or unknown ids): nothing runs, every tool is skipped. */
function rejected(
  plan: PlanJson,
  error: PlanError,
  trace: TraceRecorder,
  executionTimeMs: number,
): ExecutionResult {
  trace.record('plan_started', null, {
    planId: plan.requestId,
    order: [],
    parallel: plan.parallel,
    timeoutMs: plan.timeoutMs,
  });
  for (const t of plan.tools) {
    trace.record('tool_skipped', t.toolId, { reason: 'plan_invalid', error: error.message });
  }
  trace.record('plan_finished', null, {
    success: false,
    code: error.code,
    cycle: error.cycle ?? null,
    failureReason: error.message,
    canReplan: true,
  });
  const toolResults: ToolResult[] = plan.tools.map((t) => ({
    toolId: t.toolId,
    ok: false,
    state: 'skipped',
    executionTimeMs: 0,
    retryCount: 0,
    error: `not run: ${error.message}`,
    output: {},
    events: [],
  }));
  return {
    planId: plan.requestId,
    success: false,
    narrative: plan.narrative,
    executionTimeMs,
    toolResults,
    failedTools: [],
    skippedTools: plan.tools.map((t) => t.toolId),
    generationMetadata: plan.metadata,
    canReplan: true,
    failureReason: error.message,
    state: {},
    trace: trace.entries,
  };
}
