import type { CheckRun } from './finding.js';
import { edgeCheck } from './edge-case.js';
import type { Invocation } from './invocation.js';

/**
 * After a rejected answer the engine asks once more with `constraints.reprompt` = {code, message};
 * the agent must still answer, and legally (the simplest safe answer is a pass).
 */
export function repromptCheck(edge: Invocation | null, base: Invocation | null): CheckRun {
  const why = edge?.sample.request.constraints.reprompt;
  return edgeCheck(
    'reprompt',
    `asked again after a rejected answer (${why?.code ?? 'reprompt'})`,
    edge,
    base,
  );
}
