import { heuristicAgent } from './heuristics/policy.js';
import { personality } from './heuristics/personality.js';

/**
 * The trickster as it played up to version 1. It stays exported under this name because the
 * expert's candidate styles read it (expert/expert.ts): switching the expert to TRICKSTER_V2 is a
 * change of the expert's play, for its own version bump.
 *
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

/**
 * `trickster` version 2 (issue 42): the same liar, but its lies now pay when they land. Version 1
 * won 11–13 % at mixed tables of the five heuristics (below `random` in the six-built-in
 * round-robin) because it paid for its deceptions whether or not they worked: per game it took
 * ≈ 6 exposure from the ledger (bluffs called by any attack on it, promises it broke) against
 * ≈ 1.5 for `balanced`, ≈ 5 more from Overreach, and so the most damage at the table (≈ 24 a game
 * against ≈ 16). Now:
 * - it bluffs only over a face-down trap of its own (backedBluffs): whoever calls the bluff by
 *   attacking it may walk into a Snare or Lockjaw;
 * - it breaks its word only for a blow that may take a life (lethalBreaks), so the broken promise's
 *   exposure and lost trust buy a kill;
 * - its False Tells show strength (dominance, confidence) rather than fear: a read of high
 *   dominance is resistance an attacker counts on, so it deters instead of inviting;
 * - it keeps its exposure down like the retuned aggressor (Overreach 0.9 → 0.3, caution 0.7 → 1.5,
 *   masks 1.2 → 1.5), attacks only where the contest is worth it (attack 0.1 → −0.2: each failed
 *   manipulation is +1 exposure), and presses the leader as hard as `balanced` (leader 2.5 → 4).
 */
export const TRICKSTER_V2 = personality({
  ...TRICKSTER,
  type: { ...TRICKSTER.type, mask: 1.5 },
  overreach: 0.3,
  caution: 1.5,
  leader: 4,
  attack: -0.2,
  backedBluffs: true,
  lethalBreaks: true,
  spoof: { dominance: 2, confidence: 1 },
});

export const tricksterAgent = heuristicAgent(TRICKSTER_V2);
