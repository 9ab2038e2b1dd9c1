import type { ToolExecutionState } from '../../protocol/index.js';

/** Why a plan stopped early, as its unfinished tools will report it. */
export type PlanStop = {
  /** State of a tool that was running (or between retries) when the plan stopped. */
  interruptedState: Extract<ToolExecutionState, 'timeout' | 'failed'>;
  /** For error messages: 'the plan timed out after 300 ms'. */
  message: string;
  /** The caller gave up on the plan, so another plan would not help. */
  cancelled: boolean;
};

/** The plan's time budget and its stop switch, shared by every tool of one execution. */
export type PlanBudget = {
  /** Aborts when the plan times out or the caller cancels. */
  readonly signal: AbortSignal;
  remainingMs(): number;
  /** Why the plan stopped, or null while it may go on. */
  stop(): PlanStop | null;
  /**
   * Stops the plan as timed out now, whatever the clock says: for an attempt that was given all
   * that was left of the plan and used it up. Its deadline timer and the plan's fire at the same
   * instant, in either order, and the plan timing out is what happened either way.
   */
  expire(): PlanStop;
  /** Clears the timer and the caller's listener once the plan is over. */
  dispose(): void;
};

/**
 * The plan timeout as an AbortSignal, so it reaches every running tool at once. The budget is
 * measured with the injected monotonic clock as well as a timer, and whichever notices first
 * stops the plan: a test clock and the real timer can then never disagree about whether time is up.
 *
 * @example
 * const budget = startBudget(60_000, performance.now.bind(performance), context.signal);
 * budget.remainingMs(); // ≈ 60000
 */
export function startBudget(
  timeoutMs: number,
  now: () => number,
  callerSignal?: AbortSignal,
): PlanBudget {
  const started = now();
  const controller = new AbortController();
  let stopped: PlanStop | null = null;
  const halt = (why: PlanStop) => {
    if (stopped) return;
    stopped = why;
    controller.abort(new Error(why.message));
  };
  const timedOut: PlanStop = {
    interruptedState: 'timeout',
    message: `the plan timed out after ${timeoutMs} ms`,
    cancelled: false,
  };
  const cancelled: PlanStop = {
    interruptedState: 'failed',
    message: 'the plan was cancelled',
    cancelled: true,
  };
  const timer = setTimeout(() => halt(timedOut), timeoutMs);
  const onCancel = () => halt(cancelled);
  if (callerSignal?.aborted) onCancel();
  else callerSignal?.addEventListener('abort', onCancel, { once: true });

  const remainingMs = () => Math.max(0, timeoutMs - (now() - started));
  return {
    signal: controller.signal,
    remainingMs,
    stop() {
      if (!stopped && remainingMs() <= 0) halt(timedOut);
      return stopped;
    },
    expire() {
      halt(timedOut);
      return stopped!;
    },
    dispose() {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCancel);
    },
  };
}
