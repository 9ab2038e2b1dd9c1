import { z } from 'zod';
import { formatIssues } from '../../protocol/index.js';

/** Mebibytes → bytes. */
export const MIB = 1024 * 1024;

/** The default memory a sandboxed agent may map (RLIMIT_AS), and the default server cap. */
export const DEFAULT_MEMORY_MB = 1024;

/** The default disk quota of one seat's work dir (all its files together). */
export const DEFAULT_DISK_MB = 64;

/**
 * `TILTYARD_SANDBOX`: `required` (default) confines every subprocess agent with bubblewrap and
 * refuses to seat one where bubblewrap is missing or cannot work; `off` runs them as plain
 * processes (minimal environment, process-group kill, nothing more), with a warning at every
 * start. `auto`, the former default, meant "sandbox if you can, else run unconfined"; it is still
 * accepted and now means `required`, so an old configuration never runs agents unconfined.
 * `TILTYARD_SANDBOX_MEMORY_MB` caps what any skill may ask for; `TILTYARD_SANDBOX_DISK_MB` is each
 * work dir's disk quota.
 */
export const SandboxEnv = z.object({
  TILTYARD_SANDBOX: z
    .enum(['required', 'off', 'auto'])
    .default('required')
    .transform((m) => (m === 'auto' ? 'required' : m)),
  TILTYARD_SANDBOX_MEMORY_MB: z.coerce.number().int().min(16).max(1024 * 1024).default(DEFAULT_MEMORY_MB),
  TILTYARD_SANDBOX_DISK_MB: z.coerce.number().int().min(1).max(1024 * 1024).default(DEFAULT_DISK_MB),
});

export type SandboxMode = z.output<typeof SandboxEnv>['TILTYARD_SANDBOX'];

export type SandboxSettings = {
  mode: SandboxMode;
  /** The most memory any agent gets, whatever its skill asks for. */
  maxMemoryBytes: number;
  /** What one work dir may hold (its files' blocks together); also the largest file (RLIMIT_FSIZE). */
  diskBytes: number;
};

/** A bad TILTYARD_SANDBOX* variable: a configuration error, raised where the setting is read. */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
}

/**
 * The sandbox settings from an environment. Empty strings count as unset.
 *
 * @example sandboxSettings({ TILTYARD_SANDBOX: 'auto' }) // { mode: 'required', maxMemoryBytes: 1073741824, diskBytes: 67108864 }
 */
export function sandboxSettings(env: Readonly<Record<string, string | undefined>> = process.env): SandboxSettings {
  const pick = (k: keyof z.input<typeof SandboxEnv>) => (env[k] === '' ? undefined : env[k]);
  const parsed = SandboxEnv.safeParse({
    TILTYARD_SANDBOX: pick('TILTYARD_SANDBOX'),
    TILTYARD_SANDBOX_MEMORY_MB: pick('TILTYARD_SANDBOX_MEMORY_MB'),
    TILTYARD_SANDBOX_DISK_MB: pick('TILTYARD_SANDBOX_DISK_MB'),
  });
  if (!parsed.success) throw new SandboxConfigError(`sandbox settings: ${formatIssues(parsed.error.issues)}`);
  const d = parsed.data;
  return { mode: d.TILTYARD_SANDBOX, maxMemoryBytes: d.TILTYARD_SANDBOX_MEMORY_MB * MIB, diskBytes: d.TILTYARD_SANDBOX_DISK_MB * MIB };
}
