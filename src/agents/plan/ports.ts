import type { JsonObject, ToolInput, ToolInvocation } from '../../protocol/index.js';
import type { InvocationOutcome } from '../runtime/outcome.js';

/**
 * What the plan executor needs from the outside world. Only `runTool` is required; the rest have
 * real defaults and exist so tests can observe or steer time.
 *
 * @example
 * const ports: PlanPorts = {
 *   runTool: (tool, input, { deadlineMs, signal }) =>
 *     runProcess({ argv: [tool.toolPath, ...tool.args], cwd, env: minimalEnv(cwd), input, deadlineMs, signal }),
 * };
 */
export type PlanPorts = {
  /**
   * Run one attempt of a tool. `deadlineMs` is the time budget for this attempt (not a wall-clock
   * instant); `signal` aborts when that budget or the plan's runs out. Expected to resolve with an
   * outcome (never to reject); the executor copes if it rejects or hangs.
   */
  runTool: (
    tool: ToolInvocation,
    input: ToolInput,
    opts: { deadlineMs: number; signal: AbortSignal },
  ) => Promise<InvocationOutcome>;
  /** Wait before a retry; should end early when `signal` aborts. Default: a timer. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Monotonic milliseconds. Default: performance.now. */
  now?: () => number;
  /** ISO-8601 timestamps for trace entries. Default: the wall clock. */
  clock?: () => string;
  /** Most async tools running at once in a parallel plan. Default and ceiling: os.availableParallelism(). */
  concurrency?: number;
  /**
   * How long a `runTool` may take to settle after its signal aborted before the executor stops
   * waiting and records a timeout, so a stuck port cannot hold the plan past its deadline. Default 5000.
   */
  stopGraceMs?: number;
};

/** Who asked for the plan: the seat's request and the names the tools are told about. */
export type PlanContext = {
  /** The decision window, passed to every tool as `operation`. */
  operation: string;
  /** The seat's request; every tool gets it with its `params` and `dependencies` added. */
  input: JsonObject;
  /** The agent running the plan (recorded in the trace). */
  tool?: string;
  /** The plan's own skill: the skill of tools that name none, for `disabledSkills`. */
  skill?: string;
  /** Cancels the whole plan (the game is shutting down, say). A cancelled plan cannot be replanned. */
  signal?: AbortSignal;
};
