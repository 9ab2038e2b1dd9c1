import { raw, type Raw } from './finding.js';
import { FAILURE_HINTS } from './hints.js';
import type { Invocation } from './invocation.js';

/** A clean run whose merged state_patch has no "decision": the engine gets no answer. */
export function decisionCheck(inv: Invocation): Raw[] {
  if (inv.failure?.code !== 'decision/missing') return [];
  return [
    raw(
      'decision',
      'error',
      'decision/missing',
      inv.failure.message,
      FAILURE_HINTS['decision/missing'],
      inv.window,
    ),
  ];
}
