import type { Window } from '../protocol/index.js';
import type { Sample } from './invocation.js';
import { collectSamples, walkSamplingGame } from './samples.js';

/** One request the LLM kit puts to the model, and what it is there to show. */
export type LlmCase = { name: string; window: Window; what: string; sample: Sample };

/**
 * The action request with the fewest legal moves in a sampling game (a model that lists a card it
 * cannot play, or invents one, shows it here), past the first round and not a reprompt.
 */
function fewLegal(seed: number): Sample {
  let best: Sample | null = null;
  walkSamplingGame(seed, false, (request, state) => {
    if (request.window === 'action' && request.turn >= 2 && request.constraints.reprompt === null && (!best || request.legal_actions.length < best.request.legal_actions.length))
      best = { case: 'action', state: structuredClone(state), request: structuredClone(request) };
    return true;
  });
  if (!best) throw new Error(`no action request in the sampling game of seed ${seed}`);
  return best;
}

/**
 * The LLM kit's requests, in the order they are asked (the call limit cuts from the end): one per
 * decision window (real requests from games of built-ins, as `agent-check` uses for skills), the
 * action of compact windows, then the edge cases: an action with few legal moves and the reprompt
 * after a rejected action. Deterministic in `seed`.
 *
 * @example llmCases(1).map((c) => c.name) // ['intent', 'talk', 'action', 'reaction', 'reflect', 'compact', 'few_legal', 'reprompt']
 */
export function llmCases(seed: number): LlmCase[] {
  const samples = new Map(collectSamples(seed).map((s) => [s.case, s]));
  const of = (name: string, what: string, sample: Sample): LlmCase => ({ name, window: sample.request.window, what, sample });
  const get = (c: Sample['case']): Sample => samples.get(c)!;
  return [
    of('intent', 'the turn intent', get('intent')),
    of('talk', 'what to say at the table', get('talk')),
    of('action', 'an action where an attack is possible', get('action')),
    of('reaction', 'a reaction to an attack', get('reaction')),
    of('reflect', 'the reflection after a turn', get('reflect')),
    of('compact', 'an action in compact windows', get('compact')),
    of('few_legal', 'an action with few legal moves', fewLegal(seed)),
    of('reprompt', 'the action again after a rejected answer', get('reprompt')),
  ];
}
