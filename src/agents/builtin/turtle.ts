import { heuristicAgent } from './heuristics/policy.js';
import { personality } from './heuristics/personality.js';

/**
 * The turtle as it played up to version 1; the expert's candidate styles read it (expert/expert.ts).
 *
 * `turtle`: builds and waits — traps, guards, masks, Rebuild and Slow Burn; attacks mostly to
 * punish whoever hurt it, makes concessions and keeps them, and reacts to nearly every attack.
 */
export const TURTLE = personality({
  name: 'turtle',
  baseline: { fear: 0.15, dominance: -0.1, arousal: -0.1 },
  type: { gambit: 0.55, pressure: 0.6, guard: 1.8, mask: 1.5, trap: 2, ritual: 1.6 },
  overreach: 0.35,
  attack: -1.2,
  secondAction: 1.2,
  actThreshold: 0.45,
  leader: 0.3,
  caution: 1.3,
  grudge: 8,
  bluff: 0.08,
  promise: 0.6,
  chatter: 0.5,
  smallTalk: { concession: 2, neutral: 1.5, warning: 1, bluff: 0.3 },
  plans: ['bait', 'threat_framing', 'betrayal_cue', 'public_isolation'],
  emotions: { fear: 1.5, shame: 0.7, tilt: 0.7, paranoia: 0.3 },
  publicBias: 0.2,
  react: 1,
  spring: 0.7,
  hasten: 1.4,
  spoof: { dominance: 1, anger: 1.5 },
});

/**
 * `turtle` version 2 (issue 42): the same builder, but it no longer lets the leader run away. Version
 * 1 weighed "hit the leader" at 0.3 (`balanced` 4), so when it did attack it went after whoever hurt
 * it and left the standings leader — most often `balanced` — alone: at mixed tables of the five
 * heuristics (full windows, seed 1) `balanced` won 39.1 % and the turtle 22.5 %. At leader 2.5 its
 * rare blows land where they change the placement: over seeds 1–5 the turtle wins 27–31 % and
 * `balanced` 25–30 % (with aggressor version 2). `TURTLE` (version 1) stays for the expert's
 * candidate styles.
 */
export const TURTLE_V2 = personality({ ...TURTLE, leader: 2.5 });

export const turtleAgent = heuristicAgent(TURTLE_V2);
