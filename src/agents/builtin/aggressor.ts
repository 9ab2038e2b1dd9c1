import { heuristicAgent } from './heuristics/policy.js';
import { personality } from './heuristics/personality.js';

/**
 * The aggressor as it played up to version 1; the expert's candidate styles read it (expert/expert.ts).
 *
 * `aggressor`: swings first and often — gambits and Overreach, a second action most rounds (so it
 * keeps a thin hand), public threats and taunts, status challenges, Riposte over Brace.
 */
export const AGGRESSOR = personality({
  name: 'aggressor',
  baseline: { dominance: 0.15, anger: 0.1, arousal: 0.1 },
  // Masks at 1.6: Poker Face sheds the exposure its swings pile up (rules 2.0.0: exposure is what
  // makes an attacker the table's softest target).
  type: { gambit: 1.6, pressure: 1.15, guard: 0.7, mask: 1.6, trap: 0.5, ritual: 0.8 },
  // Retuned for rules 2.0.0 (issue 14): it still swings every round, but it no longer walks into
  // every face-down card, overextends less, and saves Overreach for when the exposure is worth it.
  // Overreach 0.15 (was 1.3) and caution 2.5 (was 0.9): the old aggressor gained twice balanced's
  // exposure (≈ 20 vs 11 a game), so it took the most damage and lost most manipulation contests
  // aimed at it; it won 17 % against three balanced. It now plays Overreach only when a blow is
  // worth far more than the exposure (a kill, the last rounds) and keeps off trapped seats: ≈ 23 %.
  overreach: 0.15,
  attack: 1.2,
  secondAction: -0.3,
  actThreshold: 0.1,
  // It presses to kill: the weakest seat first (one fewer seat to hit back), the leader second.
  leader: 1.5,
  finisher: 3,
  caution: 2.5,
  grudge: 3,
  bluff: 0.1,
  promise: 0.1,
  chatter: 0.8,
  smallTalk: { taunt: 2.5, threat: 2, bluff: 0.4, neutral: 0.3 },
  plans: ['threat_framing', 'status_challenge', 'public_isolation', 'betrayal_cue', 'bait'],
  emotions: { fear: 1.5, anger: 0.8, shame: 1, tilt: 0.6, paranoia: 0.2 },
  publicBias: 0.7,
  react: 0.8,
  spring: 1.3,
  hasten: 0.8,
  spoof: { dominance: 2, anger: 1 },
});

/**
 * `aggressor` version 2 (issue 42): it presses the standings leader as hard as `balanced` does
 * (leader 1.5 → 4) and chases the weakest seat less (finisher 3 → 1). Once the turtle (version 2)
 * also turns on the leader, a version 1 aggressor that mostly chased the weakest seat fell to
 * 16–18 % in full windows (seeds 2–3): the blows it spent finishing the weak seats helped whoever
 * led. Pressing the leader keeps it at 21–24 % over seeds 1–5. `AGGRESSOR` (version 1) stays for
 * the expert's candidate styles.
 */
export const AGGRESSOR_V2 = personality({ ...AGGRESSOR, leader: 4, finisher: 1 });

export const aggressorAgent = heuristicAgent(AGGRESSOR_V2);
