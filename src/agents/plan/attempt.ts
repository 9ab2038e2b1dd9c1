import type { InvocationOutcome } from '../runtime/outcome.js';
import { syntheticFailure } from './outcomes.js';

export type AttemptSpec = {
  /** Starts the attempt; `signal` aborts at its deadline or when the plan stops. */
  run(signal: AbortSignal): Promise<InvocationOutcome>;
  /** Time budget of this attempt in ms. */
  deadlineMs: number;
  /** Aborts when the whole plan stops (timeout or cancellation). */
  planSignal: AbortSignal;
  /** How long to keep waiting for `run` after aborting it. */
  stopGraceMs: number;
  now: () => number;
};

export type AttemptResult = {
  outcome: InvocationOutcome;
  /** Failed because its own deadline passed. */
  timedOut: boolean;
  /** Failed because the plan stopped while it ran. */
  planStopped: boolean;
};

/**
 * One attempt of one tool, bounded in time whatever the port does: the executor owns the
 * deadline (it aborts the attempt's signal when the budget is spent) and, should the port not
 * settle within `stopGraceMs` of that, gives up on it. A port that rejects becomes an
 * `agent/threw` outcome. Only a failed outcome is classified as a timeout: a tool that finished
 * successfully just as its time ran out keeps its result.
 *
 * @example
 * const { outcome, timedOut } = await runAttempt({
 *   run: (signal) => ports.runTool(tool, input, { deadlineMs: 200, signal }),
 *   deadlineMs: 200, planSignal, stopGraceMs: 5_000, now: () => performance.now(),
 * });
 */
export async function runAttempt(spec: AttemptSpec): Promise<AttemptResult> {
  const { planSignal, now } = spec;
  const started = now();
  const controller = new AbortController();
  let deadlinePassed = false;
  const onPlanStop = () => controller.abort(planSignal.reason);
  planSignal.addEventListener('abort', onPlanStop, { once: true });
  const deadline = setTimeout(() => {
    deadlinePassed = true;
    controller.abort(new Error(`attempt deadline of ${spec.deadlineMs} ms passed`));
  }, spec.deadlineMs);

  let grace: NodeJS.Timeout | undefined;
  const abandoned = new Promise<InvocationOutcome>((resolve) => {
    const startGrace = () => {
      grace = setTimeout(
        () =>
          resolve(
            syntheticFailure(
              'process/timeout',
              `runTool did not stop within ${spec.stopGraceMs} ms of being aborted`,
              now() - started,
            ),
          ),
        spec.stopGraceMs,
      );
    };
    if (controller.signal.aborted) startGrace();
    else controller.signal.addEventListener('abort', startGrace, { once: true });
  });
  if (planSignal.aborted) controller.abort(planSignal.reason);

  const threw = (error: unknown) =>
    syntheticFailure('agent/threw', `runTool threw: ${messageOf(error)}`, now() - started);
  let running: Promise<InvocationOutcome>;
  try {
    running = spec.run(controller.signal).catch(threw);
  } catch (error) {
    running = Promise.resolve(threw(error));
  }

  try {
    const outcome = await Promise.race([running, abandoned]);
    const failed = !outcome.ok;
    const planStopped = failed && planSignal.aborted;
    const timedOut =
      failed && !planStopped && (deadlinePassed || outcome.failure?.code === 'process/timeout');
    return { outcome, timedOut, planStopped };
  } finally {
    clearTimeout(deadline);
    clearTimeout(grace);
    planSignal.removeEventListener('abort', onPlanStop);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
