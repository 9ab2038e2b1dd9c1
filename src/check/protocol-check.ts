import { raw, type Raw } from './finding.js';
import { FAILURE_HINTS } from './hints.js';
import type { Invocation } from './invocation.js';

/** Failures other checks own: the exit status, and a clean run that left no decision. */
const OWNED_ELSEWHERE: ReadonlySet<string> = new Set([
  'protocol/exit_code',
  'protocol/signal',
  'decision/missing',
]);

/**
 * Protocol failures (seed 001): bad lines, unknown types, missing done, timeouts, caps, a failed
 * spawn, the agent's own done {ok:false}. Any of them means the engine got no answer.
 */
export function protocolCheck(inv: Invocation): Raw[] {
  const f = inv.failure;
  if (!f || OWNED_ELSEWHERE.has(f.code)) return [];
  const hint =
    f.code === 'process/timeout'
      ? `${FAILURE_HINTS[f.code]} (now ${inv.deadlineMs} ms)`
      : FAILURE_HINTS[f.code];
  return [raw('protocol', 'error', f.code, `${f.code}: ${f.message}`, hint, inv.window)];
}
