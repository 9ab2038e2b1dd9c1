import { canonicalJson } from '../store/canonical-json.js';
import { raw, skipped, type CheckRun } from './finding.js';
import { NOT_RUN } from './edge-case.js';
import type { Invocation } from './invocation.js';

const SHOWN = 160;
const show = (json: string) => (json.length > SHOWN ? `${json.slice(0, SHOWN)}…` : json);

/**
 * The same stdin twice (same request, memory and work dir) must give the same decision: seeded
 * games replay, and a result nobody can reproduce cannot be debugged. A warning, not an error:
 * the runtime stores external answers instead of asking again.
 */
export function determinismCheck(again: Invocation | null, first: Invocation | null): CheckRun {
  if (!again) return skipped('determinism', NOT_RUN);
  if (!first || first.decision === undefined || again.decision === undefined)
    return skipped('determinism', 'not judged: the agent gave no decision to compare');
  const a = canonicalJson(first.decision);
  const b = canonicalJson(again.decision);
  if (a === b) return { check: 'determinism', findings: [], skipped: null };
  return {
    check: 'determinism',
    findings: [
      raw(
        'determinism',
        'warning',
        'determinism',
        `the same ${first.window} request gave two different decisions: ${show(a)} then ${show(b)}`,
        'derive every random choice from the request (e.g. seed a PRNG with game_id + request_id) and never from the clock or the process id',
        first.window,
      ),
    ],
    skipped: null,
  };
}
