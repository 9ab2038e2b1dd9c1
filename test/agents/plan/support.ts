import type { PlanContext, PlanPorts } from '../../../src/agents/plan/index.js';
import type { InvocationOutcome } from '../../../src/agents/runtime/outcome.js';
import {
  PlanJson,
  type ExecutionResult,
  type JsonObject,
  type PlanJsonInput,
  type ToolInput,
  type ToolInvocation,
  type ToolInvocationInput,
} from '../../../src/protocol/index.js';

/** A parsed plan from the short form tests write; tool paths are irrelevant to fake runners. */
export function plan(
  tools: Array<Partial<ToolInvocationInput> & { toolId: string }>,
  extra: Partial<PlanJsonInput> = {},
): PlanJson {
  return PlanJson.parse({
    requestId: 'plan-1',
    tools: tools.map((t) => ({ toolPath: 'fake', ...t })),
    ...extra,
  });
}

export function outcome(
  ok: boolean,
  state: JsonObject = {},
  extra: Partial<InvocationOutcome> = {},
): InvocationOutcome {
  return {
    ok,
    failure: null,
    done: { ok, summary: null },
    state,
    events: [
      ...(Object.keys(state).length
        ? [{ version: '0' as const, type: 'state_patch' as const, patch: state }]
        : []),
      { version: '0' as const, type: 'done' as const, ok },
    ],
    logs: [],
    errors: [],
    assets: [],
    uiEvents: [],
    violations: [],
    afterDone: 0,
    stderr: '',
    stderrTruncated: false,
    exitCode: 0,
    signal: null,
    durationMs: 1,
    stdoutBytes: 0,
    ...extra,
  };
}

export type Call = {
  toolId: string;
  input: ToolInput;
  deadlineMs: number;
  start: number;
  end: number;
};

export type Behaviour = (call: {
  input: ToolInput;
  attempt: number;
  signal: AbortSignal;
  deadlineMs: number;
}) => Promise<InvocationOutcome> | InvocationOutcome;

/**
 * An in-process runTool: each tool's behaviour by id (default: succeed with `{ [toolId]: true }`),
 * every call recorded with its start and end times.
 */
export function fakeRunner(behaviours: Record<string, Behaviour> = {}): {
  runTool: PlanPorts['runTool'];
  calls: Call[];
} {
  const calls: Call[] = [];
  const attempts = new Map<string, number>();
  const runTool: PlanPorts['runTool'] = async (
    tool: ToolInvocation,
    input,
    { deadlineMs, signal },
  ) => {
    const attempt = (attempts.get(tool.toolId) ?? 0) + 1;
    attempts.set(tool.toolId, attempt);
    const call: Call = {
      toolId: tool.toolId,
      input,
      deadlineMs,
      start: performance.now(),
      end: Number.NaN,
    };
    calls.push(call);
    try {
      const behaviour = behaviours[tool.toolId] ?? (() => outcome(true, { [tool.toolId]: true }));
      return await behaviour({ input, attempt, signal, deadlineMs });
    } finally {
      call.end = performance.now();
    }
  };
  return { runTool, calls };
}

/** Succeeds after `ms`, or fails as aborted when the signal fires first (as runProcess does). */
export function sleeping(ms: number, state: JsonObject = {}): Behaviour {
  return ({ signal }) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve(outcome(true, state)), ms);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(
          outcome(
            false,
            {},
            { failure: { code: 'process/aborted', message: 'aborted' }, done: null },
          ),
        );
      });
    });
}

/**
 * Never finishes on its own: resolves as aborted only when the signal fires. A test using it ends
 * only if the executor aborts the attempt, so it proves the abort without measuring time.
 */
export function untilAborted(): Behaviour {
  return ({ signal }) =>
    new Promise((resolve) => {
      const abort = () =>
        resolve(
          outcome(
            false,
            {},
            { failure: { code: 'process/aborted', message: 'aborted' }, done: null },
          ),
        );
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort);
    });
}

/** A retry wait that only ends when the plan aborts it (see untilAborted). */
export const sleepUntilAborted = (_ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve());
  });

export function failed(
  code: 'protocol/exit_code' | 'agent/threw' = 'protocol/exit_code',
  message = 'exited with code 1',
): InvocationOutcome {
  return outcome(false, {}, { failure: { code, message }, done: null, exitCode: 1 });
}

export function failing(code?: 'protocol/exit_code' | 'agent/threw', message?: string): Behaviour {
  return () => failed(code, message);
}

/** Most calls in flight at once, from their recorded intervals. */
export function maxOverlap(intervals: ReadonlyArray<{ start: number; end: number }>): number {
  const edges = intervals.flatMap((c) => [
    { t: c.start, d: 1 },
    { t: c.end, d: -1 },
  ]);
  // Ends before starts at the same instant: touching intervals do not overlap.
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let now = 0;
  let max = 0;
  for (const e of edges) max = Math.max(max, (now += e.d));
  return max;
}

/** The seat's side of every test plan. */
export const context: PlanContext = {
  operation: 'main_action',
  input: { request_id: 'req-1', seat: 'plr_1' },
  tool: 'council',
  skill: 'council',
};

export const byId = (r: ExecutionResult, id: string) => r.toolResults.find((t) => t.toolId === id)!;
