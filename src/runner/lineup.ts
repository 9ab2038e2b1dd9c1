import { z } from 'zod';
import * as registry from '../agents/builtin/index.js';
import { AGENT_NAMES, createAgent, isAgentName } from '../agents/builtin/index.js';
import type { Agent } from '../agents/agent.js';
import type { SeatConfig } from '../game/index.js';
import { EmotionVector } from '../protocol/index.js';

/**
 * Personality baselines, when the registry exports them (`AGENT_BASELINES`). Read through the
 * namespace so the runner works with registries that predate the export; a malformed export is a
 * programming error and throws on first use.
 */
const Baselines = z.record(z.string(), EmotionVector.partial());
let baselines: z.infer<typeof Baselines> | undefined;

function agentBaselines(): z.infer<typeof Baselines> {
  if (!baselines) {
    const exported = (registry as Record<string, unknown>)['AGENT_BASELINES'];
    const parsed = Baselines.safeParse(exported ?? {});
    if (!parsed.success) throw new Error(`AGENT_BASELINES is malformed: ${parsed.error.issues[0]?.message ?? ''}`);
    baselines = parsed.data;
  }
  return baselines;
}

/**
 * The agent of each seat in game `g`: seat i gets `lineup[(i + g) % lineup.length]`, so over
 * `lineup.length` consecutive games every agent sits in every seat.
 *
 * @example seatAgents(['a', 'b', 'c', 'd'], 4, 1) // ['b', 'c', 'd', 'a']
 */
export function seatAgents(lineup: readonly string[], seats: number, g: number): string[] {
  return Array.from({ length: seats }, (_, i) => lineup[(i + g) % lineup.length]!);
}

/**
 * Seat configs for a line-up: display names are agent names, numbered when an agent sits twice
 * ("balanced 1", "balanced 2") because the engine needs names no other name contains; baselines
 * come from the registry.
 */
export function seatConfigs(names: readonly string[]): SeatConfig[] {
  const known = agentBaselines();
  const repeated = new Set(names.filter((n, i) => names.indexOf(n) !== i));
  const count = new Map<string, number>();
  return names.map((name) => {
    const k = (count.get(name) ?? 0) + 1;
    count.set(name, k);
    const display_name = repeated.has(name) ? `${name} ${k}` : name;
    const baseline = known[name];
    return baseline ? { display_name, baseline } : { display_name };
  });
}

/** Builds the seats' agents for one game; each agent's PRNG derives from the game seed and its seat. */
export function buildAgents(names: readonly string[], gameSeed: number): Agent[] {
  return names.map((name, seat) => {
    if (!isAgentName(name)) throw new Error(`unknown agent ${name}`);
    return createAgent(name, gameSeed, seat);
  });
}

/** The table size when none is given: the line-up's length if it fills a table, else 4. */
export const defaultSeats = (lineup: readonly string[] | undefined): number =>
  lineup && lineup.length >= 2 ? lineup.length : 4;

/** The line-up when none is given: the registry's agents in order, as many as there are seats. */
export const defaultLineup = (seats: number): string[] => AGENT_NAMES.slice(0, seats);
