import { raw, skipped, type CheckName, type CheckRun } from './finding.js';
import { checkInvocation } from './invocation-checks.js';
import type { Invocation } from './invocation.js';

export const NOT_RUN = 'not run: the runtime had given up on the skill after earlier failures';

const errorsOf = (inv: Invocation) => checkInvocation(inv).filter((f) => f.severity === 'error');

/**
 * An edge case judged against its plain case: the edge finds something only when the plain case
 * passed, so one broken habit is reported once, where it starts. The edge case's first error
 * becomes a single finding of this check, with its hint.
 */
export function edgeCheck(
  check: CheckName,
  what: string,
  edge: Invocation | null,
  base: Invocation | null,
): CheckRun {
  if (!edge) return skipped(check, NOT_RUN);
  if (!base || errorsOf(base).length > 0)
    return skipped(
      check,
      `not judged: the plain ${base?.window ?? edge.window} case fails, fix that first`,
    );
  const errors = errorsOf(edge);
  const first = errors[0];
  if (!first) return { check, findings: [], skipped: null };
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return {
    check,
    findings: [
      raw(check, 'error', first.key, `${what}: ${first.message}${more}`, first.hint, edge.window),
    ],
    skipped: null,
  };
}
