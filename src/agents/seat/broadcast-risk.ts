import { modelChain } from '../../providers/config.js';
import type { ModelRef } from '../../providers/router.js';
import { sandboxSettings } from '../sandbox/settings.js';
import { defaultProviders, parseAgentSpec, type AgentSpec } from './agent-spec.js';

/** Why one seat could act on a broadcast of its own game. */
export type BroadcastRisk = { seat: number; player_id: string; agent: string; why: string };

type Env = Readonly<Record<string, string | undefined>>;

/** Why an agent could read a broadcast while its game runs, or null when it cannot. */
function riskOf(agent: AgentSpec, env: Env): string | null {
  switch (agent.kind) {
    case 'builtin':
      return null;
    case 'human':
      return 'a person (or a remote program) holds it and can watch the broadcast in another tab';
    case 'llm':
      return chainRisk(agent.chain, agent.setup.configured);
    case 'skill': {
      const { skill } = agent;
      if (skill.kind === 'builtin') return null;
      if (skill.kind === 'llm') {
        const setup = defaultProviders();
        const chain = modelChain(skill.llm!, setup);
        return chain.ok ? chainRisk(chain.chain, setup.configured) : `its model ${skill.llm} cannot be resolved: ${chain.message}`;
      }
      if (skill.sandbox.network) return 'its skill is granted network access (metadata.network), so it could read the broadcast';
      if (sandboxSettings(env).mode === 'off') return 'it runs outside the sandbox (TILTYARD_SANDBOX=off), with the network and the host open to it';
      return null;
    }
  }
}

/** An LLM seat's models go to endpoints; one the operator did not set up may be an entrant's own proxy, reading the stream. */
function chainRisk(chain: readonly ModelRef[], configured: ReadonlySet<string> | undefined): string | null {
  const foreign = chain.find((m) => !(configured ?? new Set(['mock'])).has(m.provider));
  return foreign ? `its model ${foreign.provider}:${foreign.model} goes to an endpoint the server's operator did not configure (set it up in the providers file or its environment variable)` : null;
}

/**
 * The seats that could act on what a broadcast shows while their game runs: a skill granted the
 * network, any subprocess agent when the sandbox is off, an LLM seat on an endpoint the operator
 * did not configure, a human seat (a person can open a second tab). A
 * broadcast game with such a seat is held until its end, or refused, as its creator chose.
 *
 * @example broadcastRisks([builtin, networkSkill]) // [{ seat: 1, player_id: 'plr_2', agent: 'skill:net', why: '…network…' }]
 */
export function broadcastRisks(agents: readonly AgentSpec[], env: Env = process.env): BroadcastRisk[] {
  const out: BroadcastRisk[] = [];
  agents.forEach((agent, seat) => {
    const why = riskOf(agent, env);
    if (why) out.push({ seat, player_id: `plr_${seat + 1}`, agent: agent.spec, why });
  });
  return out;
}

/** broadcastRisks of agent specs that were validated already (when one no longer resolves, none: its own check reports it). */
export function risksOf(specs: readonly string[]): BroadcastRisk[] {
  const agents = specs.map((s) => parseAgentSpec(s)).flatMap((r): AgentSpec[] => (r.ok ? [r.agent] : []));
  return agents.length === specs.length ? broadcastRisks(agents) : [];
}
