import { raw, skipped, type CheckRun, type Raw } from './finding.js';
import { edgeCheck, NOT_RUN } from './edge-case.js';
import type { Invocation } from './invocation.js';

const HINT =
  'patch "memory" with a JSON object (null deletes a key) and keep it under 64 KiB; it comes back in player_private_view.memory_state.agent';

/**
 * Memory: what the runtime refused to keep (not an object, too big), and the round trip — the
 * agent run again with the memory it built must still answer as well as it did without it.
 */
export function memoryCheck(
  all: readonly Invocation[],
  roundTrip: Invocation | null,
  plain: Invocation | null,
): CheckRun {
  const refused: Raw[] = all.flatMap((inv) =>
    inv.memoryProblems.map((p) => raw('memory', 'error', p, p, HINT, inv.window)),
  );
  if (!roundTrip)
    return refused.length
      ? { check: 'memory', findings: refused, skipped: null }
      : skipped('memory', NOT_RUN);
  if (refused.length === 0 && Object.keys(roundTrip.memoryIn).length === 0)
    return skipped('memory', 'not judged: the agent keeps no memory');
  const trip = edgeCheck('memory', 'run again with the memory it returned', roundTrip, plain);
  return {
    check: 'memory',
    findings: [...refused, ...trip.findings],
    skipped: refused.length ? null : trip.skipped,
  };
}
