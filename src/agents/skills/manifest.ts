import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { formatIssues } from '../../protocol/index.js';

/**
 * SKILL.md frontmatter, per the Agent Skills format: `name` (lowercase letters, digits and single
 * hyphens, equal to the folder's name), `description`, and `metadata` as string → string. The keys
 * Tiltyard reads from metadata are listed in SKILL_METADATA.
 */
export const SkillManifest = z.looseObject({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be lowercase letters, digits and single hyphens (e.g. python-example)'),
  description: z.string().trim().min(1, 'must say what the agent does').max(1024),
  metadata: z.record(z.string(), z.coerce.string()).default({}),
});
export type SkillManifest = z.infer<typeof SkillManifest>;

/** The metadata keys the runtime understands; other keys are the author's own. */
export const SKILL_METADATA = {
  /** argv as a space-separated string; tokens naming a file in the skill folder become absolute. */
  command: 'command',
  /** A built-in agent the skill stands for (run in-process, no command). */
  builtin: 'builtin',
  /** The built-in agent to degrade to when the skill fails permanently (default balanced). */
  fallback: 'fallback',
  /** Per-decision deadline in ms (default 5000). */
  timeout_ms: 'timeout_ms',
  /** The plan template file for plan-based skills (default plan.json when present). */
  plan: 'plan',
  /** Commands: `oneshot` (default: one process per decision) or `persistent` (one per seat, requests by requestId). */
  mode: 'mode',
  /** LLM skills: the default model as <provider>[:<model>] (the prompt is the folder's prompt.md). */
  llm: 'llm',
  /** Subprocess agents: `true` to keep the network in the sandbox (an agent that calls its own model). */
  network: 'network',
  /** Subprocess agents: the memory it needs in MiB, below the default 1024 (the server's cap wins). */
  memory_mb: 'memory_mb',
} as const;

/**
 * The sandbox keys of SKILL.md metadata (strings in YAML, so `network: true` arrives as "true").
 *
 * @example SkillSandboxMetadata.parse({ network: 'true', memory_mb: '256' }) // { network: true, memory_mb: 256 }
 */
export const SkillSandboxMetadata = z.object({
  network: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .transform((v) => v === 'true'),
  memory_mb: z.coerce.number({ error: 'must be a whole number of MiB' }).int('must be a whole number of MiB').min(16).max(1024 * 1024).optional(),
});
export type SkillSandboxMetadata = z.infer<typeof SkillSandboxMetadata>;

export type ParsedSkillMd = { ok: true; manifest: SkillManifest; body: string } | { ok: false; message: string };

const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/**
 * Reads a SKILL.md: YAML frontmatter between `---` lines, then the markdown body.
 *
 * @example parseSkillMd('---\nname: x\ndescription: plays\n---\n# X').ok // true
 */
export function parseSkillMd(text: string): ParsedSkillMd {
  const m = FRONTMATTER.exec(text);
  if (!m) return { ok: false, message: 'SKILL.md must start with YAML frontmatter between two "---" lines' };
  let data: unknown;
  try {
    data = parseYaml(m[1]!);
  } catch (e) {
    return { ok: false, message: `SKILL.md frontmatter is not valid YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  const parsed = SkillManifest.safeParse(data ?? {});
  if (!parsed.success) return { ok: false, message: `SKILL.md frontmatter: ${formatIssues(parsed.error.issues)}` };
  return { ok: true, manifest: parsed.data, body: m[2] ?? '' };
}
