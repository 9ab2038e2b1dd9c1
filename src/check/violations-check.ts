import { raw, type Raw } from './finding.js';
import { VIOLATION_ERRORS, VIOLATION_HINTS } from './hints.js';
import type { Invocation } from './invocation.js';

/**
 * What the runtime ignored or refused without failing the invocation. A foreign asset path, a
 * reused asset id or a process left holding stdout are errors; the rest are warnings.
 */
export function violationsCheck(inv: Invocation): Raw[] {
  // What the sandbox stopped is the containment check's.
  return inv.violations.filter((v) => !v.code.startsWith('sandbox/')).map((v) =>
    raw(
      'violations',
      VIOLATION_ERRORS.has(v.code) ? 'error' : 'warning',
      v.code,
      `${v.code}: ${v.message}`,
      VIOLATION_HINTS[v.code] ?? 'see docs/agents.md, "Events"',
      inv.window,
    ),
  );
}
