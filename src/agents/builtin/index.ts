import type { Agent } from '../agent.js';
import { randomAgent } from './random.js';

/** The built-in personalities, by the names users type (`--agents balanced,random,…`). */
const FACTORIES = {
  random: randomAgent,
} as const satisfies Record<string, (seed: string) => Agent>;

export type AgentName = keyof typeof FACTORIES;
export const AGENT_NAMES = Object.keys(FACTORIES) as AgentName[];

export const isAgentName = (name: string): name is AgentName => Object.hasOwn(FACTORIES, name);

/**
 * An agent's PRNG stream is derived from the game seed and its seat, so the same game replays the
 * same choices whatever else ran in the process.
 */
export function createAgent(name: AgentName, gameSeed: number, seat: number): Agent {
  return FACTORIES[name](`agent:${name}:${gameSeed}:${seat}`);
}
