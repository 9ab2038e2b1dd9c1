import type {
  JsonObject,
  ToolExecutionState,
  ToolInput,
  ToolInvocation,
  ToolResult,
} from '../../protocol/index.js';
import type { InvocationOutcome } from '../runtime/outcome.js';
import { runAttempt } from './attempt.js';
import { backoffDelayMs } from './backoff.js';
import { describeFailure, stderrTail } from './outcomes.js';
import type { PlanBudget } from './plan-budget.js';
import type { PlanPorts } from './ports.js';
import type { TraceRecorder } from './trace.js';

/** A tool's final result plus what the executor needs to propagate and explain it. */
export type ToolRecord = {
  result: ToolResult;
  /** Skipped only because something upstream failed: a consequence, never the first cause. */
  propagated: boolean;
  /** The plan's failure reason if this tool turns out to be the first cause, else null. */
  cause: string | null;
};

/** What running tools needs from one execution, built once by the executor. */
export type ToolEnv = {
  runTool: PlanPorts['runTool'];
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  now: () => number;
  stopGraceMs: number;
  budget: PlanBudget;
  trace: TraceRecorder;
};

/**
 * Runs a tool until an attempt succeeds, its retries are spent or the plan stops. Before attempt
 * n+1 it waits `backoffMs × 2^(n−1)`; each attempt gets min(timeoutMs, what is left of the plan).
 * Every attempt, event, failure and wait is traced; the result keeps the last attempt's output.
 *
 * @example
 * const record = await runWithRetries(env, tool, (attempt) => toolInput(attempt), { look: 'completed' });
 * record.result.state; // 'completed' | 'failed' | 'timeout'
 */
export async function runWithRetries(
  env: ToolEnv,
  tool: ToolInvocation,
  inputFor: (attempt: number) => ToolInput,
  dependencyStates: JsonObject,
): Promise<ToolRecord> {
  const { trace, budget } = env;
  const toolId = tool.toolId;
  const started = env.now();
  const attempts = tool.retryPolicy.maxRetries + 1;
  const finish = (
    state: ToolExecutionState,
    attempt: number,
    outcome: InvocationOutcome | null,
    error: string | null,
    cause: string | null,
  ): ToolRecord => ({
    result: {
      toolId,
      ok: state === 'completed',
      state,
      executionTimeMs: env.now() - started,
      retryCount: attempt - 1,
      error,
      output: outcome?.state ?? {},
      events: outcome?.events ?? [],
    },
    propagated: false,
    cause,
  });

  for (let attempt = 1; ; attempt++) {
    const input = inputFor(attempt);
    const deadlineMs = Math.max(1, Math.min(tool.timeoutMs, Math.ceil(budget.remainingMs())));
    trace.record('tool_started', toolId, {
      attempt,
      of: attempts,
      requestId: input.requestId,
      deadlineMs,
      dependencies: dependencyStates,
    });
    const run = await runAttempt({
      run: (signal) => env.runTool(tool, input, { deadlineMs, signal }),
      deadlineMs,
      planSignal: budget.signal,
      stopGraceMs: env.stopGraceMs,
      now: env.now,
    });
    const { outcome } = run;
    for (const event of outcome.events) trace.record('event_received', toolId, { attempt, event });
    if (outcome.ok) {
      trace.record('tool_completed', toolId, {
        attempt,
        durationMs: outcome.durationMs,
        summary: outcome.done?.summary ?? null,
      });
      return finish('completed', attempt, outcome, null, null);
    }

    // An attempt whose deadline was what was left of the plan ran the plan out of time: it is
    // the plan's timeout, not the tool's (no retry), whichever of the two timers fired first.
    const stop = run.planStopped ? budget.stop() : run.timedOut && deadlineMs < tool.timeoutMs ? budget.expire() : null;
    const state: ToolExecutionState = stop
      ? stop.interruptedState
      : run.timedOut
        ? 'timeout'
        : 'failed';
    const error = stop
      ? `${stop.message} while attempt ${attempt} was running`
      : run.timedOut
        ? `timed out after ${deadlineMs} ms`
        : describeFailure(outcome);
    const willRetry = !stop && attempt < attempts;
    trace.record('tool_failed', toolId, {
      attempt,
      state,
      error,
      code: outcome.failure?.code ?? null,
      exitCode: outcome.exitCode,
      signal: outcome.signal,
      durationMs: outcome.durationMs,
      stderr: stderrTail(outcome),
      willRetry,
    });
    if (!willRetry) {
      const cause = stop
        ? `tool "${toolId}" did not finish: ${stop.message}`
        : `tool "${toolId}" ${state === 'timeout' ? 'timed out' : 'failed'} after ${plural(attempt, 'attempt')}: ${error}`;
      return finish(state, attempt, outcome, error, cause);
    }

    const delayMs = backoffDelayMs(tool.retryPolicy, attempt);
    trace.record('retry', toolId, { attempt: attempt + 1, delayMs, after: error });
    await env.sleep(delayMs, budget.signal).catch(() => undefined);
    const stopped = budget.stop();
    if (stopped) {
      const stoppedError = `${stopped.message} while waiting to retry (last error: ${error})`;
      trace.record('tool_failed', toolId, {
        attempt,
        state: stopped.interruptedState,
        error: stoppedError,
        willRetry: false,
      });
      return finish(
        stopped.interruptedState,
        attempt,
        outcome,
        stoppedError,
        `tool "${toolId}" did not finish: ${stopped.message}`,
      );
    }
  }
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
