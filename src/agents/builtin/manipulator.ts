import { heuristicAgent } from './heuristics/policy.js';
import { personality } from './heuristics/personality.js';

/**
 * `manipulator`: works the table — pressure cards (Whisper above all), every talk phase spent
 * setting up its plan (private cues naming a third seat, threats, the odd hollow promise), and
 * paranoia and tilt as its favourite emotions.
 */
export const MANIPULATOR = personality({
  name: 'manipulator',
  baseline: { dominance: 0.1, valence: 0.05, arousal: -0.05 },
  type: { gambit: 0.85, pressure: 1.6, guard: 1, mask: 1.1, trap: 0.95, ritual: 1 },
  overreach: 0.8,
  secondAction: 0.4,
  leader: 3,
  grudge: 4,
  caution: 0.8,
  bluff: 0.08,
  promise: 0.5,
  breakPromise: 0.15,
  chatter: 0.95,
  smallTalk: { warning: 2, threat: 1.5, concession: 1, promise: 1, taunt: 0.6, neutral: 0.4, bluff: 0.3 },
  plans: ['betrayal_cue', 'threat_framing', 'public_isolation', 'status_challenge', 'false_concession', 'bait'],
  emotions: { paranoia: 1.4, tilt: 1.2, shame: 1, fear: 0.8, anger: 0.2 },
  publicBias: 0.3,
  deception: 0.3,
  spoof: { confidence: 1, valence: 1, dominance: 0.5 },
});

export const manipulatorAgent = heuristicAgent(MANIPULATOR);
