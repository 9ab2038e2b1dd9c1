import { createHash } from 'node:crypto';
import { accessSync, chownSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, isAbsolute, join } from 'node:path';
import type { Failure } from '../runtime/outcome.js';
import { resolveInterpreter } from '../skills/load-skill.js';
import { networkAvailability, type NetworkTools } from './availability.js';
import { bwrapArgv, within, type SandboxLimits } from './bwrap-argv.js';
import { MAX_WORK_DIR_ENTRIES, type DiskQuota } from './disk-quota.js';
import { networkRefusal, sandboxDecision } from './policy.js';
import { reservedAddressSpace } from './runtime-reserve.js';
import { DEFAULT_MEMORY_MB, MIB, sandboxSettings, type SandboxSettings } from './settings.js';
import { traceAvailability, traced } from './syscall-trace.js';

/** Processes (and threads) one sandbox may hold: enough for a runtime's thread pools, not a fork bomb. */
export const DEFAULT_MAX_PROCESSES = 128;
/** CPU seconds per process of a long-lived agent (one-shot invocations get their deadline's). */
export const DEFAULT_PERSISTENT_CPU_SECONDS = 3_600;

/** What a spawn site knows about the agent it starts, for its sandbox. */
export type SandboxSpec = {
  /**
   * Read-only paths besides the system's (the skill folder). Default: the folders of the argv's
   * absolute file arguments, for tools started without a skill.
   */
  readOnly?: readonly string[];
  /**
   * The skill asked for the network (metadata.network: true): the internet through slirp4netns,
   * never the host's addresses or local networks (network.ts).
   */
  network?: boolean;
  /** The skill's own ask (metadata.memory_mb); the server's cap wins. */
  memoryBytes?: number;
  cpuSeconds?: number;
  processes?: number;
  /** Default: from the environment (TILTYARD_SANDBOX, TILTYARD_SANDBOX_MEMORY_MB, TILTYARD_SANDBOX_DISK_MB). */
  settings?: SandboxSettings;
  /**
   * Trace the sandboxed command's system calls (strace) into a fresh folder under this one, for
   * agent-check to find what the agent tried; ignored when strace cannot trace here.
   */
  trace?: string;
};

export type Confined =
  | { ok: true; argv: string[]; sandboxed: false }
  /**
   * `traced`: argv[0] is strace, whose only child is bwrap. `attach`: the network to attach
   * before the agent starts (attachNetwork; spawn with descriptors INFO_FD and BLOCK_FD piped).
   * `workDir` (its real path) must stay within `quota` (DiskWatch).
   */
  | { ok: true; argv: string[]; sandboxed: true; network: boolean; attach: NetworkTools | null; limits: SandboxLimits; workDir: string; quota: DiskQuota; traced: boolean }
  | { ok: false; failure: Failure };

const INTERPRETER = /^(python|pypy|node|nodejs|ruby|perl|php|bun|deno|java|lua)[0-9.]*$/;
const HOST_SYSTEM = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** argv[0] as an absolute path, looked up on the agent's PATH like execvp would; null if none. */
function resolveCommand(command: string, path: string): string | null {
  if (command.includes('/')) return existsSync(command) ? command : null;
  const interpreter = resolveInterpreter(command);
  if (isAbsolute(interpreter)) return interpreter;
  for (const dir of path.split(delimiter)) if (dir && executable(join(dir, command))) return join(dir, command);
  return null;
}

/**
 * What must be visible for the program itself to run: nothing for system programs; the install
 * prefix of an interpreter outside /usr (pyenv's python, nvm's node: `<prefix>/bin/python3`);
 * else the program file alone — never a folder it merely sits in, which could be the project's.
 */
function programView(real: string): string[] {
  if (HOST_SYSTEM.some((s) => within(real, s))) return [];
  const bin = dirname(real);
  if (INTERPRETER.test(basename(real)) && basename(bin) === 'bin' && dirname(bin) !== '/') return [dirname(bin)];
  return [real];
}

/**
 * As root we run the agent as an unprivileged uid of its own (root ignores RLIMIT_NPROC, which
 * counts per uid, and may read root-owned files). One uid per work dir, so seats never share a
 * process budget; the work dir is handed to it.
 */
function sandboxUid(workDir: string): number | null {
  if (process.getuid?.() !== 0) return null;
  const uid = 0x100000 + (createHash('sha256').update(workDir).digest().readUInt32BE(0) % 0x3fff0000);
  // Every time (one cheap syscall): remembering which dirs were handed over would grow forever.
  chownSync(workDir, uid, uid);
  return uid;
}

/**
 * The argv to spawn for an agent command under the sandbox policy: the bwrap-wrapped command, the
 * command as given when the sandbox is off, or a spawn failure when the policy refuses.
 *
 * @example
 * const c = confine(['python3', '/skills/x/agent.py'], workDir, { readOnly: ['/skills/x'] }, env.PATH);
 * if (c.ok) spawn(c.argv[0], c.argv.slice(1), { cwd: workDir });
 */
export function confine(argv: readonly string[], workDir: string, spec: SandboxSpec = {}, path = process.env['PATH'] ?? ''): Confined {
  let settings: SandboxSettings;
  try {
    settings = spec.settings ?? sandboxSettings();
  } catch (e) {
    // A bad TILTYARD_SANDBOX is the operator's error; refuse the agent with it rather than throw at a spawn site.
    return { ok: false, failure: { code: 'process/spawn_failed', message: (e as Error).message } };
  }
  const decision = sandboxDecision(settings);
  if (decision.kind === 'off') return { ok: true, argv: [...argv], sandboxed: false };
  if (decision.kind === 'refused') return { ok: false, failure: { code: 'process/spawn_failed', message: decision.message } };
  const [command, ...args] = argv;
  const resolved = command ? resolveCommand(command, path) : null;
  if (!command || !resolved) {
    return { ok: false, failure: { code: 'process/spawn_failed', message: `cannot start ${JSON.stringify(command ?? '')}: ENOENT, not found (check the path, PATH and that the working directory exists)` } };
  }
  let real: string;
  let work: string;
  try {
    real = realpathSync(resolved);
    work = realpathSync(workDir);
  } catch (e) {
    return { ok: false, failure: { code: 'process/spawn_failed', message: `cannot start ${JSON.stringify(command)}: ${(e as Error).message}` } };
  }
  if (!executable(real)) {
    return { ok: false, failure: { code: 'process/spawn_failed', message: `cannot start ${JSON.stringify(command)}: EACCES, permission denied (is it executable?)` } };
  }
  const readOnly = (spec.readOnly ?? args.filter((a) => isAbsolute(a) && existsSync(a) && statSync(a).isFile()).map((a) => dirname(a)))
    .filter((p) => existsSync(p))
    .map((p) => realpathSync(p));
  const limits: SandboxLimits = {
    memoryBytes: Math.min(spec.memoryBytes ?? DEFAULT_MEMORY_MB * MIB, settings.maxMemoryBytes),
    reservedBytes: reservedAddressSpace(real),
    cpuSeconds: spec.cpuSeconds ?? DEFAULT_PERSISTENT_CPU_SECONDS,
    processes: spec.processes ?? DEFAULT_MAX_PROCESSES,
    diskBytes: settings.diskBytes,
  };
  const network = spec.network === true;
  let attach: NetworkTools | null = null;
  if (network) {
    const net = networkAvailability();
    if (!net.ok) return { ok: false, failure: { code: 'process/spawn_failed', message: networkRefusal(settings, net)! } };
    attach = net.tools;
  }
  const view = [...programView(real), ...readOnly];
  const out = bwrapArgv({
    tools: decision.tools,
    // The real path: a symlink on the way (pyenv, alternatives) may lie outside the sandbox's view.
    command: [real, ...args],
    readOnly: view,
    workDir: work,
    network,
    limits,
    uid: sandboxUid(work),
  });
  const quota = { bytes: settings.diskBytes, entries: MAX_WORK_DIR_ENTRIES };
  const confined = { ok: true, sandboxed: true, network, attach, limits, workDir: work, quota } as const;
  const tracer = spec.trace === undefined ? null : traceAvailability();
  if (spec.trace !== undefined && tracer?.ok) {
    const argv = traced(tracer.strace, out, spec.trace, { command: real, readOnly: view, workDir: work, network });
    return { ...confined, argv, traced: true };
  }
  return { ...confined, argv: out, traced: false };
}
