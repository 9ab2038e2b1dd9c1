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
  // Rules 2.0.0 taxes a round without an attack: the trickster's traps now back its attacks
  // rather than replace them, and it breaks fewer promises (each one marks it for the table).
  type: { gambit: 1, pressure: 1.15, guard: 0.9, mask: 1.2, trap: 1.25, ritual: 0.85 },
  overreach: 0.9,
  attack: 0.1,
  secondAction: 0.5,
  leader: 2.5,
  grudge: 4,
  caution: 0.7,
  bluff: 0.15,
  promise: 0.3,
  breakPromise: 0.05,
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
