import { basename, resolve } from 'node:path';
import { AGENT_NAMES, AGENT_VERSIONS } from '../../agents/builtin/index.js';
import { DEFAULT_SKILL_ROOTS, defaultProviders } from '../../agents/seat/agent-spec.js';
import { discoverSkills, type Skill } from '../../agents/skills/load-skill.js';

/** What `GET /agents` answers: everything a seat can be, and nothing about keys or endpoints. */
export type AgentCatalog = {
  /** `version`: the built-in's behaviour version (AGENT_VERSIONS), recorded with every game it plays. */
  builtins: Array<{ name: string; spec: string; version: number }>;
  skills: Array<{ name: string; spec: string; description: string; kind: Skill['kind']; fallback: string }>;
  /** Skill folders that do not load, with what to fix. */
  problems: Array<{ folder: string; message: string }>;
  providers: Array<{ name: string; kind: string; spec: string; default_model: string | null }>;
  /** Why no provider is listed when the providers file is broken (null when it loads). */
  provider_problem: string | null;
  /** Seats a person plays: `human`, or `human:<display name>`. */
  humans: Array<{ name: string; spec: string; description: string }>;
};

/** What `human` is, for GET /agents. */
export const HUMAN_AGENT = {
  name: 'human',
  spec: 'human',
  description:
    'A person (or any remote program) holds the seat, answering over HTTP: POST /games gives the seat a token and a link to its seat page (GET …/seats/:player_id/request, POST …/decision). `human:<name>` sets the display name. Server only (tiltyard serve; not with REDIS_URL workers), and `tiltyard play` on a terminal.',
};

type Env = Readonly<Record<string, string | undefined>>;

const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|DATABASE_URL/i;

/**
 * Masks the values of secret-looking environment variables in a message. Problem messages quote
 * config files and parser errors, which may echo a key that `${ENV}` substitution put there.
 */
function masked(text: string, env: Env): string {
  let out = text;
  for (const [name, value] of Object.entries(env)) if (value && value.length >= 6 && SECRET_NAME.test(name)) out = out.split(value).join('***');
  return out;
}

/**
 * Lists the agents a game may seat: the built-ins, the skills under the skill roots (read afresh
 * on each call, so a folder dropped in shows up without a restart) and the LLM providers. Only
 * names, kinds and descriptions leave: skill configs, provider keys and base URLs never do.
 */
export class AgentsService {
  constructor(
    private readonly roots: readonly string[] = DEFAULT_SKILL_ROOTS,
    private readonly env: Env = process.env,
  ) {}

  catalog(): AgentCatalog {
    // ./skills and the package's skills/ are one folder when the server runs from its checkout.
    const roots = [...new Set(this.roots.map((r) => resolve(r)))];
    const found = discoverSkills(roots, this.env);
    // parseAgentSpec seats the first root's skill of a name, so that is the one to list.
    const byName = new Map<string, Skill>();
    for (const s of found.skills) if (!byName.has(s.name)) byName.set(s.name, s);
    const skills = [...byName.values()];
    return {
      builtins: AGENT_NAMES.map((name) => ({ name, spec: name, version: AGENT_VERSIONS[name] })),
      skills: skills.map((s) => ({ name: s.name, spec: `skill:${s.name}`, description: s.description, kind: s.kind, fallback: s.fallback })),
      problems: found.problems.map((p) => ({ folder: basename(p.dir), message: masked(p.message, this.env) })),
      ...this.providers(),
      humans: [HUMAN_AGENT],
    };
  }

  private providers(): Pick<AgentCatalog, 'providers' | 'provider_problem'> {
    try {
      const setup = defaultProviders();
      const providers = [...setup.kinds].map(([name, kind]) => ({ name, kind, spec: `llm:${name}`, default_model: setup.defaults.get(name) ?? null }));
      return { providers, provider_problem: null };
    } catch (e) {
      return { providers: [], provider_problem: masked(e instanceof Error ? e.message : String(e), this.env) };
    }
  }
}
