import type { EmotionVector } from '../../protocol/index.js';
import type { Agent } from '../agent.js';
import { AGGRESSOR_V2, aggressorAgent } from './aggressor.js';
import { balancedAgent } from './balanced.js';
import { MANIPULATOR, manipulatorAgent } from './manipulator.js';
import { randomAgent } from './random.js';
import { EXPERT, EXPERT_FAST, expertAgent, expertOptions } from './expert/expert.js';
import { EXPERT_LEVELS, isExpertSpec, parseExpertSpec } from './expert/levels.js';
import { TRICKSTER_V2, tricksterAgent } from './trickster.js';
import { TURTLE_V2, turtleAgent } from './turtle.js';

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
  'expert:deep': expertAgent(expertOptions('expert:deep', EXPERT_LEVELS['deep']!)),
} as const satisfies Record<string, (seed: string) => Agent>;

/** The registry's names; `expert:<k>x` and `expert:<steps>` (levels.ts) are built-ins too. */
export type ListedAgentName = keyof typeof FACTORIES;
export type AgentName = ListedAgentName | `expert:${string}`;
export const AGENT_NAMES = Object.keys(FACTORIES) as ListedAgentName[];

export const isAgentName = (name: string): name is AgentName => Object.hasOwn(FACTORIES, name) || isExpertSpec(name);

/**
 * Each personality's emotional baseline, for the seat config (`seats[i].baseline`): emotions start
 * there and drift back to it. Small on purpose (|x| ≤ 0.2): the policy carries the personality.
 */
export const AGENT_BASELINES: Record<ListedAgentName, Partial<EmotionVector>> = {
  random: {},
  balanced: {},
  aggressor: AGGRESSOR_V2.baseline,
  turtle: TURTLE_V2.baseline,
  manipulator: MANIPULATOR.baseline,
  trickster: TRICKSTER_V2.baseline,
  expert: {},
  'expert:fast': {},
  'expert:deep': {},
};

/** A built-in's baseline: any expert budget plays from expert's. */
export const agentBaseline = (name: AgentName): Partial<EmotionVector> => (Object.hasOwn(AGENT_BASELINES, name) ? AGENT_BASELINES[name as ListedAgentName] : AGENT_BASELINES.expert);

/**
 * Each built-in's behaviour version: bump it whenever a change makes the agent choose differently
 * in some seeded game (agent-versions.unit.spec.ts pins each one's fingerprint with its version).
 * A stored game records the version of each built-in seat (SeatRecord.agent_version), so a game
 * played before a change says which behaviour played it.
 */
export const AGENT_VERSIONS: Record<ListedAgentName, number> = {
  random: 1,
  balanced: 1,
  // 2: presses the standings leader (leader 4, was 1.5; finisher 1, was 3).
  aggressor: 2,
  // 2: presses the standings leader (leader 2.5, was 0.3).
  turtle: 2,
  manipulator: 1,
  trickster: 2,
  // 3: wider candidates (every card at every target), sequential halving, and a horizon that grows
  // with the budget (2: its own search in compact windows; 1 handed them to the balanced core).
  expert: 3,
  'expert:fast': 3,
  'expert:deep': 3,
};

/** A built-in's version: every expert budget (`expert:<k>x`, `expert:<steps>`) plays expert's code, so it has expert's. */
export const agentVersion = (name: AgentName): number => (Object.hasOwn(AGENT_VERSIONS, name) ? AGENT_VERSIONS[name as ListedAgentName] : AGENT_VERSIONS.expert);

/** `name@version` of a built-in, e.g. `trickster@2`, `expert:3x@3`. */
export const agentVersionTag = (name: AgentName): string => `${name}@${agentVersion(name)}`;

/**
 * An agent's PRNG stream is derived from the game seed and its seat, so the same game replays the
 * same choices whatever else ran in the process.
 */
export function createAgent(name: AgentName, gameSeed: number, seat: number): Agent {
  const factory = Object.hasOwn(FACTORIES, name) ? FACTORIES[name as ListedAgentName] : expertBudget(name);
  return factory(`agent:${name}:${gameSeed}:${seat}`);
}

function expertBudget(name: string): (seed: string) => Agent {
  const r = parseExpertSpec(name);
  if (!r.ok) throw new Error(r.message);
  return expertAgent(r.options);
}
