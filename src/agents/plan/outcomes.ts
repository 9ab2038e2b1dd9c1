import type { FailureCode, InvocationOutcome } from '../runtime/outcome.js';

/**
 * An outcome for an attempt whose port never gave one (it threw, or would not stop), so the rest
 * of the executor handles every attempt the same way.
 *
 * @example
 * syntheticFailure('agent/threw', 'runTool threw: boom', 12).ok; // false
 */
export function syntheticFailure(
  code: FailureCode,
  message: string,
  durationMs: number,
): InvocationOutcome {
  return {
    ok: false,
    failure: { code, message },
    done: null,
    state: {},
    events: [],
    logs: [],
    errors: [],
    assets: [],
    uiEvents: [],
    violations: [],
    afterDone: 0,
    stderr: '',
    stderrTruncated: false,
    exitCode: null,
    signal: null,
    durationMs,
    stdoutBytes: 0,
  };
}

/**
 * One line saying why an attempt failed: the protocol failure if there was one, else the tool's
 * own `done {ok:false}` with its summary and first error event.
 *
 * @example
 * describeFailure(outcome); // 'protocol/exit_code: exited with code 3'
 * describeFailure(outcome); // 'reported failure (done ok:false): no legal move [E_RULES: hand is empty]'
 */
export function describeFailure(outcome: InvocationOutcome): string {
  if (outcome.failure) return `${outcome.failure.code}: ${outcome.failure.message}`;
  const summary = outcome.done?.summary ? `: ${outcome.done.summary}` : '';
  const first = outcome.errors[0];
  const error = first ? ` [${first.errorCode}: ${first.errorMessage}]` : '';
  return `reported failure (done ok:false)${summary}${error}`;
}

/** The end of stderr, enough to debug from a trace without copying megabytes into it. */
export function stderrTail(outcome: InvocationOutcome, max = 2_000): string {
  return outcome.stderr.length > max ? `…${outcome.stderr.slice(-max)}` : outcome.stderr;
}
