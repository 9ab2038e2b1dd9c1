import { z } from 'zod';
import { formatIssues } from '../../protocol/index.js';

/** One field of a skill's configuration form (seed 002 §1 ConfigField). */
export const ConfigField = z.object({
  name: z.string().min(1),
  type: z.enum(['string', 'number', 'boolean', 'enum']),
  // JSON authors write null for "none"; it means the same as leaving the key out.
  label: z.string().nullish(),
  hint: z.string().nullish(),
  /** Masked in every log and trace (API keys…). */
  sensitive: z.boolean().default(false),
  options: z.array(z.string()).nullish(),
  default: z.unknown().optional(),
  required: z.boolean().default(false),
});
export type ConfigField = z.infer<typeof ConfigField>;

export const ConfigSchema = z.object({ fields: z.array(ConfigField) });
export type ConfigSchema = z.infer<typeof ConfigSchema>;

export type ResolvedConfig = {
  values: Record<string, unknown>;
  /** The resolved values of sensitive fields: every trace and log masks them. */
  secrets: string[];
};

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${VAR}` in a string from `env`. An unset variable is an error, not an empty string:
 * a key that silently became "" would fail far from its cause.
 */
export function substituteEnv(text: string, env: Readonly<Record<string, string | undefined>>): { ok: true; value: string } | { ok: false; missing: string } {
  let missing: string | null = null;
  const value = text.replace(ENV_REF, (_, name: string) => {
    const v = env[name];
    if (v === undefined) missing ??= name;
    return v ?? '';
  });
  return missing === null ? { ok: true, value } : { ok: false, missing };
}

function coerce(field: ConfigField, raw: unknown): { ok: true; value: unknown } | { ok: false; message: string } {
  switch (field.type) {
    case 'string':
      return typeof raw === 'string' ? { ok: true, value: raw } : { ok: false, message: 'must be a string' };
    case 'number': {
      const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
      return typeof n === 'number' && Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: 'must be a number' };
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
      return { ok: false, message: 'must be true or false' };
    case 'enum':
      return typeof raw === 'string' && (field.options ?? []).includes(raw)
        ? { ok: true, value: raw }
        : { ok: false, message: `must be one of ${(field.options ?? []).join(', ')}` };
  }
}

/**
 * A skill's configuration: config.json values (after `${ENV}` substitution) checked against the
 * schema's fields, defaults filled in. Keys the schema does not declare are errors (typos).
 */
export function resolveConfig(
  schema: ConfigSchema,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; config: ResolvedConfig } | { ok: false; message: string } {
  const parsed = z.record(z.string(), z.unknown()).safeParse(raw ?? {});
  if (!parsed.success) return { ok: false, message: `config.json: ${formatIssues(parsed.error.issues)}` };
  const given = parsed.data;
  const fields = new Map(schema.fields.map((f) => [f.name, f]));
  const unknown = Object.keys(given).find((k) => !fields.has(k));
  if (unknown !== undefined) return { ok: false, message: `config.json: "${unknown}" is not a field of config.schema.json` };
  const values: Record<string, unknown> = {};
  const secrets: string[] = [];
  for (const field of schema.fields) {
    let value = Object.hasOwn(given, field.name) ? given[field.name] : field.default;
    if (typeof value === 'string') {
      const sub = substituteEnv(value, env);
      if (!sub.ok) return { ok: false, message: `config.json: ${field.name} needs the environment variable ${sub.missing}, which is not set` };
      value = sub.value;
    }
    if (value === undefined || value === '') {
      if (field.required) return { ok: false, message: `config.json: ${field.name} is required` };
      continue;
    }
    const c = coerce(field, value);
    if (!c.ok) return { ok: false, message: `config.json: ${field.name} ${c.message}` };
    values[field.name] = c.value;
    if (field.sensitive && String(c.value).length > 0) secrets.push(String(c.value));
  }
  return { ok: true, config: { values, secrets } };
}
