import { execFile, execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { PlanJson, formatIssues } from '../../protocol/index.js';
import { isAgentName, type AgentName } from '../builtin/index.js';
import { ConfigSchema, resolveConfig, type ResolvedConfig } from './config.js';
import { parseSkillMd, SKILL_METADATA, SkillSandboxMetadata } from './manifest.js';

/** A plan template: a PlanJson without its requestId (each decision gets its own). */
export const PlanTemplate = PlanJson.omit({ requestId: true });
export type PlanTemplate = z.infer<typeof PlanTemplate>;

/** A loaded skill, ready to sit at a table. */
export type Skill = {
  name: string;
  description: string;
  /** Absolute path of the skill folder. */
  dir: string;
  metadata: Record<string, string>;
  body: string;
  kind: 'builtin' | 'command' | 'plan' | 'llm';
  builtin: AgentName | null;
  /** Commands: argv with the skill's own files made absolute. */
  argv: string[] | null;
  /** Plans: the template with tool paths made absolute. */
  plan: PlanTemplate | null;
  /** LLM skills: the default model, `<provider>[:<model>]` (run in-process by src/agents/llm). */
  llm: string | null;
  config: ResolvedConfig;
  fallback: AgentName;
  timeoutMs: number;
  /** What its subprocesses' sandbox allows: the network (metadata.network), memory (metadata.memory_mb). */
  sandbox: { network: boolean; memoryBytes: number | null };
};

export type SkillLoad = { ok: true; skill: Skill } | { ok: false; dir: string; message: string };

export const DEFAULT_DECISION_TIMEOUT_MS = 5_000;
const MAX_DECISION_TIMEOUT_MS = 120_000;

/** A token naming a file inside the skill folder becomes its absolute path; others stay as given. */
function ownFile(dir: string, token: string): string {
  if (isAbsolute(token)) return token;
  const full = resolve(dir, token);
  return full.startsWith(dir + sep) && existsSync(full) && statSync(full).isFile() ? full : token;
}

const interpreters = new Map<string, string>();

/**
 * `python3` is often a version-manager shim (pyenv, asdf) that costs ~150 ms per start — more than
 * a decision's work. Resolved once per process to the interpreter it runs, so each decision pays
 * only Python's own start-up. Anything unexpected keeps the name as typed.
 */
export function resolveInterpreter(command: string): string {
  if (command !== 'python3' && command !== 'python') return command;
  let real = interpreters.get(command);
  if (real === undefined) {
    try {
      // A hang detector only, paid once: on a loaded machine the shim alone can take over 10 s, and
      // falling back to the shim breaks sandboxed agents (the sandbox does not show pyenv's libexec).
      real = execFileSync(command, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      real = '';
    }
    if (!real || !isAbsolute(real) || !existsSync(real)) real = command;
    interpreters.set(command, real);
  }
  return real;
}

/**
 * Resolves `python3` (as resolveInterpreter does) without blocking the event loop, so a server can
 * do it after listening: the first GET /agents, or the first skill seated, then finds it cached
 * instead of waiting for the shim to start with everything else stopped.
 */
export function warmInterpreter(command = 'python3'): Promise<void> {
  if (interpreters.has(command)) return Promise.resolve();
  return new Promise((done) => {
    execFile(command, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8', timeout: 10_000 }, (err, stdout) => {
      const real = err ? '' : stdout.trim();
      if (!interpreters.has(command)) interpreters.set(command, real && isAbsolute(real) && existsSync(real) ? real : command);
      done();
    });
  });
}

function readJson(path: string, what: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(readFileSync(path, 'utf8')) as unknown };
  } catch (e) {
    return { ok: false, message: `${what}: ${(e as Error).message}` };
  }
}

/**
 * Loads one skill folder: SKILL.md frontmatter, what runs it (a built-in, a command or a plan),
 * and its configuration with `${ENV}` resolved from `env`. Problems come back as a message that
 * says what to fix, never as an exception.
 *
 * @example loadSkill('skills/python-example') // { ok: true, skill: { kind: 'command', … } }
 */
export function loadSkill(folder: string, env: Readonly<Record<string, string | undefined>> = process.env): SkillLoad {
  const dir = resolve(folder);
  const fail = (message: string): SkillLoad => ({ ok: false, dir, message });
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return fail(`${folder} is not a folder`);
  const mdPath = join(dir, 'SKILL.md');
  if (!existsSync(mdPath)) return fail(`${folder} has no SKILL.md`);
  const md = parseSkillMd(readFileSync(mdPath, 'utf8'));
  if (!md.ok) return fail(md.message);
  const { name, description, metadata } = md.manifest;
  if (name !== basename(dir)) return fail(`SKILL.md names the skill "${name}" but its folder is "${basename(dir)}"; they must match`);

  const fallbackName = metadata[SKILL_METADATA.fallback] ?? 'balanced';
  if (!isAgentName(fallbackName)) return fail(`metadata.fallback: "${fallbackName}" is not a built-in agent`);
  const timeoutText = metadata[SKILL_METADATA.timeout_ms];
  const timeoutMs = timeoutText === undefined ? DEFAULT_DECISION_TIMEOUT_MS : Number(timeoutText);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_DECISION_TIMEOUT_MS)
    return fail(`metadata.timeout_ms must be a whole number of ms between 1 and ${MAX_DECISION_TIMEOUT_MS}, got "${timeoutText}"`);

  const sandboxMeta = SkillSandboxMetadata.safeParse({ network: metadata[SKILL_METADATA.network], memory_mb: metadata[SKILL_METADATA.memory_mb] });
  if (!sandboxMeta.success) return fail(`SKILL.md metadata: ${formatIssues(sandboxMeta.error.issues)}`);
  const sandbox = { network: sandboxMeta.data.network, memoryBytes: sandboxMeta.data.memory_mb === undefined ? null : sandboxMeta.data.memory_mb * 1024 * 1024 };

  let config: ResolvedConfig = { values: {}, secrets: [] };
  const schemaPath = join(dir, 'config.schema.json');
  if (existsSync(schemaPath)) {
    const raw = readJson(schemaPath, 'config.schema.json');
    if (!raw.ok) return fail(raw.message);
    const schema = ConfigSchema.safeParse(raw.value);
    if (!schema.success) return fail(`config.schema.json: ${formatIssues(schema.error.issues)}`);
    const configPath = join(dir, 'config.json');
    const values = existsSync(configPath) ? readJson(configPath, 'config.json') : { ok: true as const, value: {} };
    if (!values.ok) return fail(values.message);
    const resolved = resolveConfig(schema.data, values.value, env);
    if (!resolved.ok) return fail(resolved.message);
    config = resolved.config;
  } else if (existsSync(join(dir, 'config.json'))) {
    return fail('config.json needs a config.schema.json that declares its fields');
  }

  const base = { name, description, dir, metadata, body: md.body, config, fallback: fallbackName, timeoutMs, sandbox };
  const builtin = metadata[SKILL_METADATA.builtin];
  if (builtin !== undefined) {
    if (!isAgentName(builtin)) return fail(`metadata.builtin: "${builtin}" is not a built-in agent`);
    return { ok: true, skill: { ...base, kind: 'builtin', builtin, argv: null, plan: null, llm: null } };
  }
  const llm = metadata[SKILL_METADATA.llm];
  if (llm !== undefined) {
    if (!/^[a-z0-9][a-z0-9_-]*(:.+)?$/.test(llm)) return fail(`metadata.llm must be <provider>[:<model>], e.g. mock or openai:gpt-4o-mini, got "${llm}"`);
    return { ok: true, skill: { ...base, kind: 'llm', builtin: null, argv: null, plan: null, llm } };
  }
  const command = metadata[SKILL_METADATA.command];
  const mode = metadata[SKILL_METADATA.mode];
  if (mode !== undefined && mode !== 'oneshot' && mode !== 'persistent') return fail(`metadata.mode must be oneshot or persistent, got "${mode}"`);
  if (command !== undefined) {
    const argv = command.trim().split(/\s+/).filter(Boolean).map((t) => ownFile(dir, t));
    argv[0] = resolveInterpreter(argv[0]!);
    if (argv.length === 0) return fail('metadata.command is empty');
    return { ok: true, skill: { ...base, kind: 'command', builtin: null, argv, plan: null, llm: null } };
  }
  const planPath = join(dir, metadata[SKILL_METADATA.plan] ?? 'plan.json');
  if (existsSync(planPath)) {
    const raw = readJson(planPath, basename(planPath));
    if (!raw.ok) return fail(raw.message);
    const plan = PlanTemplate.safeParse(raw.value);
    if (!plan.success) return fail(`${basename(planPath)}: ${formatIssues(plan.error.issues)}`);
    const tools = plan.data.tools.map((t) => ({ ...t, toolPath: resolveInterpreter(ownFile(dir, t.toolPath)), args: t.args.map((a) => ownFile(dir, a)) }));
    return { ok: true, skill: { ...base, kind: 'plan', builtin: null, argv: null, plan: { ...plan.data, tools }, llm: null } };
  }
  return fail('SKILL.md metadata needs a "command" (or "builtin"), or the folder a plan.json');
}

/**
 * Every skill under the given roots (each a folder of skill folders). Broken skills are reported,
 * not fatal: one bad folder must not hide the others.
 */
export function discoverSkills(roots: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): { skills: Skill[]; problems: Array<{ dir: string; message: string }> } {
  const skills: Skill[] = [];
  const problems: Array<{ dir: string; message: string }> = [];
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory() || !existsSync(join(root, entry.name, 'SKILL.md'))) continue;
      const loaded = loadSkill(join(root, entry.name), env);
      if (loaded.ok) skills.push(loaded.skill);
      else problems.push({ dir: loaded.dir, message: loaded.message });
    }
  }
  return { skills, problems };
}
