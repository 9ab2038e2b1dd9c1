import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { EmotionVector } from '../../protocol/index.js';
import { AGENT_BASELINES, AGENT_NAMES, isAgentName, type AgentName } from '../builtin/index.js';
import { loadSkill, type Skill } from '../skills/load-skill.js';

/** Where `skill:<name>` looks when <name> is not a path: the product's own skills/ folder. */
export const DEFAULT_SKILL_ROOTS = ['skills'];

/** An agent a seat can take, resolved from what the user typed. */
export type AgentSpec =
  | { kind: 'builtin'; spec: string; name: AgentName }
  | { kind: 'skill'; spec: string; skill: Skill };

export type SpecOptions = {
  skillRoots?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
};

export const AGENT_SPEC_HELP = `a built-in (${AGENT_NAMES.join(', ')}) or skill:<folder> (e.g. skill:skills/python-example)`;

const cache = new Map<string, AgentSpec>();

/**
 * Resolves one agent spec: a built-in name, or `skill:<folder>` (a path, or a name under the skill
 * roots). Skills are loaded once per process.
 *
 * @example parseAgentSpec('skill:skills/python-example') // { ok: true, agent: { kind: 'skill', … } }
 */
export function parseAgentSpec(spec: string, options: SpecOptions = {}): { ok: true; agent: AgentSpec } | { ok: false; message: string } {
  if (isAgentName(spec)) return { ok: true, agent: { kind: 'builtin', spec, name: spec } };
  if (!spec.startsWith('skill:')) return { ok: false, message: `unknown agent "${spec}": expected ${AGENT_SPEC_HELP}` };
  const ref = spec.slice('skill:'.length).trim();
  if (!ref) return { ok: false, message: `"${spec}" names no skill folder` };
  const cached = cache.get(spec);
  if (cached) return { ok: true, agent: cached };
  const roots = options.skillRoots ?? DEFAULT_SKILL_ROOTS;
  const folder = existsSync(ref) || ref.includes('/') ? ref : (roots.map((r) => join(r, ref)).find((p) => existsSync(p)) ?? ref);
  const loaded = loadSkill(folder, options.env);
  if (!loaded.ok) return { ok: false, message: `${spec}: ${loaded.message}` };
  const agent: AgentSpec = { kind: 'skill', spec, skill: loaded.skill };
  cache.set(spec, agent);
  return { ok: true, agent };
}

/** The name a seat shows at the table: the built-in's or the skill's own name. */
export const displayNameOf = (agent: AgentSpec): string => (agent.kind === 'builtin' ? agent.name : agent.skill.name);

/** The emotional baseline a seat starts from: the personality's, for built-ins and their skills. */
export function baselineOf(agent: AgentSpec): Partial<EmotionVector> | undefined {
  const name = agent.kind === 'builtin' ? agent.name : agent.skill.builtin;
  return name ? AGENT_BASELINES[name] : undefined;
}
