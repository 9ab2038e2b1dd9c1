import type { EmotionVector } from '../../protocol/index.js';
import type { Agent } from '../agent.js';
import { AGGRESSOR, aggressorAgent } from './aggressor.js';
import { balancedAgent } from './balanced.js';
import { MANIPULATOR, manipulatorAgent } from './manipulator.js';
import { randomAgent } from './random.js';
import { EXPERT, EXPERT_FAST, expertAgent } from './expert/expert.js';
import { TRICKSTER_V2, tricksterAgent } from './trickster.js';
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
  trickster: TRICKSTER_V2.baseline,
  expert: {},
  'expert:fast': {},
};

/**
 * Each built-in's behaviour version: bump it whenever a change makes the agent choose differently
 * in some seeded game (agent-versions.unit.spec.ts pins each one's fingerprint with its version).
 * A stored game records the version of each built-in seat (SeatRecord.agent_version), so a game
 * played before a change says which behaviour played it.
 */
export const AGENT_VERSIONS: Record<AgentName, number> = {
  random: 1,
  balanced: 1,
  aggressor: 1,
  turtle: 1,
  manipulator: 1,
  trickster: 2,
  expert: 1,
  'expert:fast': 1,
};

/** `name@version` of a built-in, e.g. `trickster@2`. */
export const agentVersionTag = (name: AgentName): string => `${name}@${AGENT_VERSIONS[name]}`;

/**
 * An agent's PRNG stream is derived from the game seed and its seat, so the same game replays the
 * same choices whatever else ran in the process.
 */
export function createAgent(name: AgentName, gameSeed: number, seat: number): Agent {
  return FACTORIES[name](`agent:${name}:${gameSeed}:${seat}`);
}
