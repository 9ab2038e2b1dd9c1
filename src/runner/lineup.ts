import { AGENT_NAMES, createAgent, isAgentName } from '../agents/builtin/index.js';
import type { Agent } from '../agents/agent.js';
import { baselineOf, displayNameOf, parseAgentSpec, type AgentSpec, type SpecOptions } from '../agents/seat/agent-spec.js';
import { createSeat } from '../agents/seat/create-seat.js';
import type { SeatAgent, SeatContext } from '../agents/seat/types.js';
import type { SeatConfig } from '../game/index.js';
import { RunnerError } from './runner-errors.js';

/**
 * The agent of each seat in game `g`: seat i gets `lineup[(i + g) % lineup.length]`, so over
 * `lineup.length` consecutive games every agent sits in every seat.
 *
 * @example seatAgents(['a', 'b', 'c', 'd'], 4, 1) // ['b', 'c', 'd', 'a']
 */
export function seatAgents(lineup: readonly string[], seats: number, g: number): string[] {
  return Array.from({ length: seats }, (_, i) => lineup[(i + g) % lineup.length]!);
}

/** Resolves agent specs that were validated earlier; one that no longer resolves is a runner error. */
export function resolveSpecs(specs: readonly string[], options?: SpecOptions): AgentSpec[] {
  return specs.map((spec) => {
    const r = parseAgentSpec(spec, options);
    if (!r.ok) throw new RunnerError(r.message);
    return r.agent;
  });
}

/**
 * Seat configs for a line-up: display names are the agents' names, numbered when one sits twice
 * ("balanced 1", "balanced 2") because the engine needs names no other name contains; baselines
 * are the personalities'.
 */
export function seatConfigs(specs: readonly string[], options?: SpecOptions): SeatConfig[] {
  const agents = resolveSpecs(specs, options);
  const names = agents.map(displayNameOf);
  // Numbered when repeated, or when one name contains another (balanced / balanced-plus).
  const clash = (n: string, i: number) => names.some((m, j) => j !== i && (m === n || m.includes(n) || n.includes(m)));
  const count = new Map<string, number>();
  return agents.map((agent, i) => {
    const name = names[i]!;
    const k = (count.get(name) ?? 0) + 1;
    count.set(name, k);
    const display_name = clash(name, i) ? `${name} ${k}` : name;
    const baseline = baselineOf(agent);
    return baseline ? { display_name, baseline } : { display_name };
  });
}

/** Builds the seats' built-in agents for one game (the engine-level harness); each PRNG derives from the game seed and its seat. */
export function buildAgents(names: readonly string[], gameSeed: number): Agent[] {
  return names.map((name, seat) => {
    if (!isAgentName(name)) throw new RunnerError(`unknown agent ${name}`);
    return createAgent(name, gameSeed, seat);
  });
}

/** The tool-protocol seats of one game, in seat order. */
export function buildSeats(specs: readonly string[], gameSeed: number, ctx: Omit<SeatContext, 'gameSeed' | 'seat'> = {}, options?: SpecOptions): SeatAgent[] {
  return resolveSpecs(specs, options).map((agent, seat) => createSeat(agent, { ...ctx, gameSeed, seat }));
}

/** The table size when none is given: the line-up's length if it fills a table, else 4. */
export const defaultSeats = (lineup: readonly string[] | undefined): number =>
  lineup && lineup.length >= 2 ? lineup.length : 4;

/** The line-up when none is given: the registry's agents in order, as many as there are seats. */
export const defaultLineup = (seats: number): string[] => AGENT_NAMES.slice(0, seats);
