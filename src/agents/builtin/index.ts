import type { EmotionVector } from '../../protocol/index.js';
import type { Agent } from '../agent.js';
import { AGGRESSOR, aggressorAgent } from './aggressor.js';
import { balancedAgent } from './balanced.js';
import { MANIPULATOR, manipulatorAgent } from './manipulator.js';
import { randomAgent } from './random.js';
import { EXPERT, EXPERT_FAST, expertAgent } from './expert/expert.js';
import { TRICKSTER, tricksterAgent } from './trickster.js';
import { TURTLE, turtleAgent } from './turtle.js';

/** The built-in personalities, by the names users type (`--agents balanced,random,…`). */
const FACTORIES = {
  random: randomAgent,
  balanced: balancedAgent,
  aggressor: aggressorAgent,
  turtle: turtleAgent,
  manipulator: manipulatorAgent,
  trickster: tricksterAgent,
  // The reference agent (determinized search over its own view); `expert:fast` for tournaments.
  expert: expertAgent(EXPERT),
  'expert:fast': expertAgent(EXPERT_FAST),
} as const satisfies Record<string, (seed: string) => Agent>;

export type AgentName = keyof typeof FACTORIES;
export const AGENT_NAMES = Object.keys(FACTORIES) as AgentName[];

export const isAgentName = (name: string): name is AgentName => Object.hasOwn(FACTORIES, name);

/**
 * Each personality's emotional baseline, for the seat config (`seats[i].baseline`): emotions start
 * there and drift back to it. Small on purpose (|x| ≤ 0.2): the policy carries the personality.
 */
export const AGENT_BASELINES: Record<AgentName, Partial<EmotionVector>> = {
  random: {},
  balanced: {},
  aggressor: AGGRESSOR.baseline,
  turtle: TURTLE.baseline,
  manipulator: MANIPULATOR.baseline,
  trickster: TRICKSTER.baseline,
  expert: {},
  'expert:fast': {},
};

/**
 * An agent's PRNG stream is derived from the game seed and its seat, so the same game replays the
 * same choices whatever else ran in the process.
 */
export function createAgent(name: AgentName, gameSeed: number, seat: number): Agent {
  return FACTORIES[name](`agent:${name}:${gameSeed}:${seat}`);
}
