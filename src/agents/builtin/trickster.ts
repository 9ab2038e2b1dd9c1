import { heuristicAgent } from './heuristics/policy.js';
import { personality } from './heuristics/personality.js';

/**
 * `trickster`: lies for a living — bluffs, False Tells showing fear to draw attacks into its traps,
 * baits and forced lines onto those traps, promises it breaks (false concessions), overconfidence
 * and paranoia pushed on others.
 */
export const TRICKSTER = personality({
  name: 'trickster',
  baseline: { greed: 0.15, arousal: 0.1, valence: 0.1 },
  type: { gambit: 0.9, pressure: 1.05, guard: 0.9, mask: 1.5, trap: 1.6, ritual: 0.85 },
  overreach: 0.9,
  secondAction: 0.3,
  leader: 2.5,
  grudge: 4,
  caution: 0.7,
  bluff: 0.25,
  promise: 0.45,
  breakPromise: 0.25,
  chatter: 0.8,
  smallTalk: { bluff: 2, promise: 1, taunt: 1, neutral: 0.5, warning: 0.5 },
  plans: ['bait', 'false_concession', 'betrayal_cue', 'threat_framing', 'status_challenge'],
  emotions: { overconfidence: 1.2, tilt: 1.2, paranoia: 1, fear: 0.5, shame: 0.4 },
  publicBias: 0.35,
  spring: 1.5,
  deception: 0.6,
  spoof: { fear: 2, dominance: 1, confidence: 0.5 },
});

export const tricksterAgent = heuristicAgent(TRICKSTER);
