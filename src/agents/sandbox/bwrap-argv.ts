import { existsSync, lstatSync, readlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SandboxTools } from './availability.js';

/** What an agent may use; bwrap has no memory or process limit of its own, so prlimit sets them. */
export type SandboxLimits = {
  /** RLIMIT_AS: address space; allocations past it fail (MemoryError, ENOMEM). */
  memoryBytes: number;
  /**
   * Address space the program's runtime reserves and never touches, added to RLIMIT_AS on top of
   * memoryBytes (runtime-reserve.ts: Node's); none when absent.
   */
  reservedBytes?: number;
  /** RLIMIT_CPU per process: SIGXCPU at the soft limit, SIGKILL a second later. */
  cpuSeconds: number;
  /** RLIMIT_NPROC: processes and threads of the sandbox's user; fork fails with EAGAIN past it. */
  processes: number;
  /**
   * The work dir's disk quota (disk-quota.ts watches the whole folder), and RLIMIT_FSIZE: no one
   * file may be larger; a write past it fails with EFBIG after SIGXFSZ, which kills a process
   * that does not ignore it.
   */
  diskBytes: number;
};

/** The descriptors bwrap reports its sandbox's pid on, and waits on before it starts the command. */
export const INFO_FD = 3;
export const BLOCK_FD = 4;

/** A confined command, fully resolved (absolute, real paths). */
export type BwrapPlan = {
  tools: SandboxTools;
  /** The command inside the sandbox (argv[0] absolute). */
  command: string[];
  /** Bound read-only at the same path (the skill folder, the interpreter's install prefix). */
  readOnly: string[];
  /** Bound writable at the same path; also the working directory. */
  workDir: string;
  /**
   * The network opt-in: the sandbox still gets its own (empty) network namespace, and bwrap
   * reports its pid on fd INFO_FD and waits for a byte on fd BLOCK_FD before it starts the
   * command, so the caller can attach user-mode networking first (network.ts).
   */
  network: boolean;
  limits: SandboxLimits;
  /** Run as this uid/gid inside (the server runs as root), or null to keep the caller's. */
  uid: number | null;
  /** Whether the server runs as root (bwrap then needs no user namespace). Default: asked of the process. */
  root?: boolean;
};

/** The private /tmp is RAM; bounded so it cannot be used to get around the memory limit. */
export const TMP_SIZE_BYTES = 64 * 1024 * 1024;

/** What every sandbox sees of the system, read-only: programs and libraries, and /etc. */
const SYSTEM_DIRS = ['/usr', '/etc'];
const TOP_LEVEL_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

let systemArgs: string[] | null = null;

/** /usr and /etc bound read-only; /bin, /lib… as the symlinks they are on merged-/usr systems. */
function systemView(): string[] {
  if (systemArgs) return systemArgs;
  const args: string[] = [];
  for (const dir of SYSTEM_DIRS) if (existsSync(dir)) args.push('--ro-bind', dir, dir);
  for (const path of TOP_LEVEL_LINKS) {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (st.isDirectory()) args.push('--ro-bind', path, path);
  }
  return (systemArgs = args);
}

/** True when `path` is `root` or inside it. */
export const within = (path: string, root: string): boolean => path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);

/**
 * The full argv for a confined command: bwrap with its own PID, IPC and network namespaces, its
 * own /proc, dying with its parent, in a new session; a filesystem of the system directories,
 * the read-only paths and the work dir, with a private size-bounded /tmp; then prlimit for the
 * limits and, when we are root, setpriv to an unprivileged uid (root ignores
 * RLIMIT_NPROC and can read root-owned files).
 *
 * @example
 * bwrapArgv({ tools, command: ['/usr/bin/python3', '/skills/x/agent.py'], readOnly: ['/skills/x'],
 *   workDir: '/tmp/tiltyard-agents/x-seat1-ab', network: false, limits, uid: null });
 * // ['/usr/bin/bwrap', '--unshare-pid', …, '--', '/usr/bin/prlimit', '--as=1073741824', …, '--fsize=67108864', '--', '/usr/bin/python3', …]
 */
export function bwrapArgv(plan: BwrapPlan): string[] {
  const { tools, limits, workDir, uid } = plan;
  const root = plan.root ?? process.getuid?.() === 0;
  // Always a network namespace of its own: without one an agent reaches the host's loopback
  // services (PostgreSQL, Redis), whatever else it is allowed.
  const args = [tools.bwrap, '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net'];
  if (plan.network) {
    args.push('--info-fd', String(INFO_FD), '--block-fd', String(BLOCK_FD));
    // Run by a user other than root, bwrap mounts /proc as uid 0 of a user namespace of its own,
    // then nests a second one for any other uid; the network namespace stays the first one's, which
    // the network's setup (nsenter, slirp4netns) must join — the second could not configure it.
    // Uid 0 inside keeps one namespace; bwrap leaves the agent no capability all the same.
    if (uid === null && !root) args.push('--unshare-user', '--uid', '0', '--gid', '0');
  }
  args.push('--die-with-parent', '--new-session', '--proc', '/proc', '--dev', '/dev', ...systemView());
  args.push('--perms', '1777', '--size', String(TMP_SIZE_BYTES), '--tmpfs', '/tmp');

  const binds = [...new Set(plan.readOnly)].filter((p) => !SYSTEM_DIRS.some((s) => within(p, s))).sort((a, b) => a.length - b.length);
  // bwrap creates missing parents of a mount point as 0700 root dirs, which an unprivileged agent
  // cannot cross: create them first, traversable.
  const targets = [...binds, workDir];
  const parents = new Set<string>();
  for (const target of targets) {
    for (let p = dirname(target); p !== '/' && p !== '/tmp'; p = dirname(p)) {
      if (targets.some((t) => within(p, t)) || SYSTEM_DIRS.some((s) => within(p, s))) continue;
      parents.add(p);
    }
  }
  for (const p of [...parents].sort((a, b) => a.length - b.length)) args.push('--perms', '0755', '--dir', p);
  for (const path of binds) args.push('--ro-bind', path, path);
  args.push('--bind', workDir, workDir, '--chdir', workDir);
  if (uid !== null) args.push('--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID');

  const cpu = Math.max(1, Math.ceil(limits.cpuSeconds));
  args.push('--', tools.prlimit, `--as=${Math.floor(limits.memoryBytes + (limits.reservedBytes ?? 0))}`, `--cpu=${cpu}:${cpu + 1}`, `--nproc=${Math.max(1, Math.floor(limits.processes))}`, `--fsize=${Math.max(1, Math.floor(limits.diskBytes))}`, '--');
  if (uid !== null) args.push(tools.setpriv, `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--');
  args.push(...plan.command);
  return args;
}
