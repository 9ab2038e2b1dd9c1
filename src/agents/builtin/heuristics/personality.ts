import type { CardType, EmotionalIntent, EmotionVector, ManipulationPlan, SpeechAct } from '../../../protocol/index.js';

/**
 * The knobs that make one heuristic agent differ from another. Every policy decision reads these;
 * the agents' own files only fill them in, so the play logic lives in one place.
 */
export type Personality = {
  readonly name: string;
  /** Emotional baseline the CLI puts into the seat config (small values, |x| ≤ 0.2). */
  readonly baseline: Partial<EmotionVector>;
  /** Multiplier on the value of playing a card of each type. */
  readonly type: Readonly<Record<CardType, number>>;
  /** Extra multiplier on Overreach (the reckless 4-damage gambit). */
  readonly overreach: number;
  /** Added to every attack's value. */
  readonly attack: number;
  /** Cost of a second action in a round (besides its exposure); high keeps cards in hand. */
  readonly secondAction: number;
  /** Below this value the seat would rather pass. */
  readonly actThreshold: number;
  /** Weight of "hit the leader" in target choice (vs. the seat that hurt us). */
  readonly leader: number;
  /** How much the risk of walking into a face-down trap deters an attack (1 = its expected cost). */
  readonly caution: number;
  /** Weight of "finish the weakest" (low resolve, last life) in target choice: fewer seats left to hit back. */
  readonly finisher: number;
  /** Weight of grievance (who hurt us) in target choice. */
  readonly grudge: number;
  /** Probability of a bluff statement in a round (overconfidence adds to it). */
  readonly bluff: number;
  /** Probability of a peace promise / concession to a seat it will not attack. */
  readonly promise: number;
  /** Probability of attacking a seat it promised peace to (a broken promise). */
  readonly breakPromise: number;
  /**
   * Bluffs only while one of its own traps lies face down: a bluff is called by any attack on the
   * bluffer (exposure +1), so it is told when whoever calls it may walk into a Snare or Lockjaw.
   */
  readonly backedBluffs: boolean;
  /**
   * Breaks its word (attacks a seat it promised peace, or sets up a false concession) only for a
   * blow that may take a life: the broken promise's exposure and lost trust are paid once, for a kill.
   */
  readonly lethalBreaks: boolean;
  /** Probability of a second public statement. */
  readonly chatter: number;
  /** Speech acts of that second statement, by weight. */
  readonly smallTalk: Readonly<Partial<Record<SpeechAct, number>>>;
  /** Manipulation plans it sets up and names, most preferred first. */
  readonly plans: readonly ManipulationPlan[];
  /** Emotional intents it pushes, by weight. */
  readonly emotions: Readonly<Partial<Record<EmotionalIntent, number>>>;
  /** Probability of public (vs. private) delivery when the plan allows both. */
  readonly publicBias: number;
  /** Willingness to spend a Brace/Riposte on a light attack (0–1). */
  readonly react: number;
  /** Value of springing an own trap and of hastening an own ritual. */
  readonly spring: number;
  readonly hasten: number;
  /** Probability of writing a deception frame into the secret plan. */
  readonly deception: number;
  /** Emotions a False Tell shows, by weight. */
  readonly spoof: Readonly<Partial<Record<'dominance' | 'anger' | 'fear' | 'confidence' | 'valence', number>>>;
};

const NEUTRAL_TYPES: Record<CardType, number> = { gambit: 1, guard: 1, trap: 1, mask: 1, pressure: 1, ritual: 1 };

/** The balanced personality; the others override what makes them different. */
export const BASE_PERSONALITY: Personality = {
  name: 'balanced',
  baseline: {},
  // Balanced still leans a little toward defence: at this table damage is amplified by exposure and
  // traps punish indiscriminate attackers, so a measured seat outlives a reckless one.
  type: { gambit: 0.85, pressure: 0.85, guard: 1.3, mask: 1.2, trap: 1.4, ritual: 1.3 },
  overreach: 0.6,
  attack: -0.4,
  secondAction: 0.5,
  actThreshold: 0.3,
  // Hitting the standings leader keeps a passive seat from running away with the table; grudges
  // (who hurt us) punish indiscriminate attackers. Both were tuned in simulation.
  leader: 4,
  finisher: 0,
  caution: 0.6,
  grudge: 2.5,
  bluff: 0.06,
  promise: 0.35,
  breakPromise: 0,
  backedBluffs: false,
  lethalBreaks: false,
  chatter: 0.6,
  smallTalk: { bluff: 0.25, taunt: 1, neutral: 1, warning: 1, concession: 0.6, threat: 1 },
  plans: ['betrayal_cue', 'threat_framing', 'bait', 'status_challenge', 'public_isolation', 'false_concession'],
  emotions: { fear: 1, tilt: 1, shame: 1, paranoia: 0.5, anger: 0.3, overconfidence: 0.2 },
  publicBias: 0.35,
  react: 0.6,
  spring: 1,
  hasten: 1,
  deception: 0.1,
  spoof: { dominance: 1, anger: 1, confidence: 1 },
};

export const personality = (overrides: Partial<Personality> & { name: string }): Personality => ({
  ...BASE_PERSONALITY,
  ...overrides,
  type: { ...NEUTRAL_TYPES, ...overrides.type },
});
