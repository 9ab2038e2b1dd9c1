import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EmotionVector } from '../../protocol/index.js';
import { AGENT_NAMES, agentBaseline, agentVersionTag, isAgentName, type AgentName } from '../builtin/index.js';
import { EXPERT_SPEC_HELP, parseExpertSpec } from '../builtin/expert/levels.js';
import { loadProviders, modelChain, type ProviderSetup } from '../../providers/config.js';
import type { ModelRef } from '../../providers/router.js';
import { assertCanSeatSubprocessAgents } from '../sandbox/index.js';
import { loadSkill, type Skill } from '../skills/load-skill.js';

/** The package's own folder (src/agents/seat and dist/agents/seat are both three levels down). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** Where `skill:<name>` looks when <name> is not a path: ./skills, then the product's own skills/. */
export const DEFAULT_SKILL_ROOTS = ['skills', join(PACKAGE_ROOT, 'skills')];

/** The LLM agent skill (its prompt.md). */
export const LLM_SKILL_DIR = join(PACKAGE_ROOT, 'skills', 'llm');

/** An agent a seat can take, resolved from what the user typed. */
export type AgentSpec =
  | { kind: 'builtin'; spec: string; name: AgentName }
  | { kind: 'skill'; spec: string; skill: Skill }
  | { kind: 'llm'; spec: string; chain: ModelRef[]; setup: ProviderSetup }
  /** A person (or any remote program) answering over HTTP; `name` is the display name it asked for. */
  | { kind: 'human'; spec: string; name: string | null };

/** The longest display name `human:<name>` takes. */
export const MAX_HUMAN_NAME = 40;

/** `human` or `human:<display name>`: a seat answered over HTTP (see human-seat.ts). */
function parseHuman(spec: string): { ok: true; agent: AgentSpec } | { ok: false; message: string } {
  if (spec === 'human') return { ok: true, agent: { kind: 'human', spec, name: null } };
  const name = spec.slice('human:'.length).trim();
  if (!name || name.length > MAX_HUMAN_NAME) return { ok: false, message: `"${spec}": a human seat's display name is 1–${MAX_HUMAN_NAME} characters (human:<name>)` };
  return { ok: true, agent: { kind: 'human', spec, name } };
}

export type SpecOptions = {
  skillRoots?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /** Providers for llm: seats (default: from the environment and the providers file, loaded once). */
  providers?: ProviderSetup;
};

export const AGENT_SPEC_HELP = `a built-in (${AGENT_NAMES.join(', ')}; the expert's budget: ${EXPERT_SPEC_HELP}), skill:<folder> (e.g. skill:skills/python-example) llm:<provider>[:<model>] (e.g. llm:mock) or human[:<display name>] (a seat answered over HTTP)`;

let defaultSetup: ProviderSetup | null = null;
/** The providers from the environment and the providers file, loaded once per process. */
export const defaultProviders = (): ProviderSetup => (defaultSetup ??= loadProviders());
const providerSetup = (options: SpecOptions): ProviderSetup => options.providers ?? (options.env ? loadProviders({ env: options.env }) : defaultProviders());

const cache = new Map<string, AgentSpec>();

/**
 * Whether a spec is a built-in (or a skill wrapping one): its answers derive from the seed alone,
 * so its decisions and traces can be had again by replaying the game.
 *
 * @example isDeterministicSpec('balanced') // true
 */
export function isDeterministicSpec(spec: string): boolean {
  const r = parseAgentSpec(spec);
  return r.ok && (r.agent.kind === 'builtin' || (r.agent.kind === 'skill' && r.agent.skill.kind === 'builtin'));
}

/**
 * Resolves one agent spec: a built-in name, or `skill:<folder>` (a path, or a name under the skill
 * roots). Skills are loaded once per process.
 *
 * @example parseAgentSpec('skill:skills/python-example') // { ok: true, agent: { kind: 'skill', … } }
 */
export function parseAgentSpec(spec: string, options: SpecOptions = {}): { ok: true; agent: AgentSpec } | { ok: false; message: string } {
  if (isAgentName(spec)) return { ok: true, agent: { kind: 'builtin', spec, name: spec } };
  if (spec.startsWith('expert:')) {
    const bad = parseExpertSpec(spec);
    if (!bad.ok) return { ok: false, message: bad.message };
  }
  if (spec === 'human' || spec.startsWith('human:')) return parseHuman(spec);
  if (spec.startsWith('llm:')) {
    let setup: ProviderSetup;
    try {
      setup = providerSetup(options);
    } catch (e) {
      return { ok: false, message: `${spec}: ${(e as Error).message}` };
    }
    const chain = modelChain(spec.slice('llm:'.length), setup);
    return chain.ok ? { ok: true, agent: { kind: 'llm', spec, chain: chain.chain, setup } } : { ok: false, message: `${spec}: ${chain.message}` };
  }
  if (!spec.startsWith('skill:')) return { ok: false, message: `unknown agent "${spec}": expected ${AGENT_SPEC_HELP}` };
  const ref = spec.slice('skill:'.length).trim();
  if (!ref) return { ok: false, message: `"${spec}" names no skill folder` };
  const cached = cache.get(spec);
  if (cached) return refusal(cached) ?? { ok: true, agent: cached };
  const roots = options.skillRoots ?? DEFAULT_SKILL_ROOTS;
  const folder = existsSync(ref) || ref.includes('/') ? ref : (roots.map((r) => join(r, ref)).find((p) => existsSync(p)) ?? ref);
  const loaded = loadSkill(folder, options.env);
  if (!loaded.ok) return { ok: false, message: `${spec}: ${loaded.message}` };
  const agent: AgentSpec = { kind: 'skill', spec, skill: loaded.skill };
  cache.set(spec, agent);
  return refusal(agent) ?? { ok: true, agent };
}

/**
 * A skill that runs processes where the sandbox cannot hold it (no working bubblewrap; the network
 * opt-in without slirp4netns) is refused here, with the reason, so a game is never started with it.
 */
function refusal(agent: AgentSpec): { ok: false; message: string } | null {
  if (agent.kind !== 'skill' || (agent.skill.kind !== 'command' && agent.skill.kind !== 'plan')) return null;
  try {
    assertCanSeatSubprocessAgents({ network: agent.skill.sandbox.network });
    return null;
  } catch (e) {
    return { ok: false, message: `${agent.spec}: ${(e as Error).message}` };
  }
}

/** The name a seat shows at the table: the built-in's, the skill's, or "llm <model>". */
export function displayNameOf(agent: AgentSpec): string {
  switch (agent.kind) {
    case 'builtin':
      return agent.name;
    case 'skill':
      return agent.skill.name;
    case 'llm':
      return `llm ${agent.chain[0]!.model}`;
    case 'human':
      return agent.name ?? 'human';
  }
}

/** The emotional baseline a seat starts from: the personality's, for built-ins and their skills. */
export function baselineOf(agent: AgentSpec): Partial<EmotionVector> | undefined {
  const name = builtinOf(agent);
  return name ? agentBaseline(name) : undefined;
}

/** The built-in that plays a seat: the spec's own, or the one a builtin skill wraps. */
const builtinOf = (agent: AgentSpec): AgentName | null => (agent.kind === 'builtin' ? agent.name : agent.kind === 'skill' ? agent.skill.builtin : null);

/**
 * The `agent_version` a stored seat records: `name@version` of the built-in that plays it (a
 * builtin skill records the built-in it wraps), nothing for other agents or a spec that no longer
 * resolves.
 *
 * @example seatVersion('trickster') // { agent_version: 'trickster@2' }
 */
export function seatVersion(spec: string, options?: SpecOptions): { agent_version?: string } {
  const r = parseAgentSpec(spec, options);
  const name = r.ok ? builtinOf(r.agent) : null;
  return name ? { agent_version: agentVersionTag(name) } : {};
}

/** The seat ids (plr_N) of a line-up's human seats. */
export function humanSeatIds(agents: readonly string[]): string[] {
  return agents.flatMap((spec, i) => {
    const r = parseAgentSpec(spec);
    return r.ok && r.agent.kind === 'human' ? [`plr_${i + 1}`] : [];
  });
}

/** Whether a seat's agent spec is a person's (`human`, `human:<name>`): its answers are a human's, not a program's. */
export const isHumanSpec = (spec: string): boolean => spec === 'human' || spec.startsWith('human:');
