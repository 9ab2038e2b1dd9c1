import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The programs the sandbox is built from: bubblewrap, and util-linux's prlimit and setpriv. */
export type SandboxTools = { bwrap: string; prlimit: string; setpriv: string };

export type Availability = { ok: true; tools: SandboxTools } | { ok: false; reason: string };

const SYSTEM_PATH = ['/usr/bin', '/bin', '/usr/sbin', '/sbin', '/usr/local/bin'];

function which(name: string): string | null {
  const dirs = [...SYSTEM_PATH, ...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean)];
  for (const dir of dirs) {
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return null;
}

let cached: Availability | null = null;

/**
 * Whether bubblewrap can confine agents on this machine, probed once per process: the programs
 * must exist, and a trial sandbox (new PID and network namespaces, limits applied) must run —
 * user namespaces can be disabled, or a container can forbid mounts, and then bwrap is present
 * but useless.
 */
export function sandboxAvailability(): Availability {
  return (cached ??= probe());
}

function probe(): Availability {
  if (process.platform !== 'linux') return { ok: false, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const bwrap = which('bwrap');
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed' };
  const prlimit = which('prlimit');
  const setpriv = which('setpriv');
  if (!prlimit || !setpriv) return { ok: false, reason: 'prlimit or setpriv (util-linux) is not installed' };
  try {
    execFileSync(
      bwrap,
      ['--unshare-pid', '--unshare-net', '--die-with-parent', '--new-session', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', prlimit, '--nproc=64', '--as=268435456', '--', 'true'],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
    );
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
    return { ok: false, reason: `bubblewrap is installed but cannot create a sandbox here: ${stderr || (e as Error).message}` };
  }
  return { ok: true, tools: { bwrap, prlimit, setpriv } };
}
