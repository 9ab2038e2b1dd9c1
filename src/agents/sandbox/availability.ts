import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The programs the sandbox is built from: bubblewrap, and util-linux's prlimit and setpriv. */
export type SandboxTools = { bwrap: string; prlimit: string; setpriv: string };

export type Availability = { ok: true; tools: SandboxTools } | { ok: false; reason: string };

/** What a skill with the network opt-in needs: slirp4netns, and nsenter + ip to fence the host off. */
export type NetworkTools = { slirp4netns: string; nsenter: string; ip: string };

export type NetworkAvailability = { ok: true; tools: NetworkTools } | { ok: false; reason: string };

/**
 * `name` looked up on PATH, as execvp would: the first executable file. Only PATH, so an operator
 * (or a test) sees exactly what the server will use, and "not on PATH" means absent.
 */
export function which(name: string, path = process.env['PATH'] ?? ''): string | null {
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      if (statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** Per PATH: a test (or an operator's wrapper) that changes PATH gets a fresh answer. */
const cached = new Map<string, Availability>();
const cachedNetwork = new Map<string, NetworkAvailability>();

/**
 * Whether bubblewrap can confine agents on this machine, probed once per process and PATH: the
 * programs must be on PATH, and a trial sandbox (new PID and network namespaces, limits applied)
 * must run — user namespaces can be disabled, or a container can forbid mounts, and then bwrap
 * is present but useless.
 */
export function sandboxAvailability(path = process.env['PATH'] ?? ''): Availability {
  let known = cached.get(path);
  if (!known) cached.set(path, (known = probe(path)));
  return known;
}

function probe(path: string): Availability {
  if (process.platform !== 'linux') return { ok: false, reason: `bubblewrap needs Linux (this is ${process.platform})` };
  const bwrap = which('bwrap', path);
  if (!bwrap) return { ok: false, reason: 'bubblewrap (bwrap) is not installed (not found on PATH)' };
  const prlimit = which('prlimit', path);
  const setpriv = which('setpriv', path);
  if (!prlimit || !setpriv) return { ok: false, reason: 'prlimit or setpriv (util-linux) is not installed (not found on PATH)' };
  try {
    // The trial runs prlimit itself inside (`--version`): nothing else need be on PATH.
    execFileSync(
      bwrap,
      ['--unshare-pid', '--unshare-net', '--die-with-parent', '--new-session', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', prlimit, '--nproc=64', '--as=268435456', '--fsize=1048576', '--', prlimit, '--version'],
      { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 },
    );
  } catch (e) {
    const stderr = String((e as { stderr?: Buffer }).stderr ?? '').trim();
    return { ok: false, reason: `bubblewrap is installed but cannot create a sandbox here: ${stderr || (e as Error).message}` };
  }
  return { ok: true, tools: { bwrap, prlimit, setpriv } };
}

/**
 * Whether a skill with the network opt-in can be given its own network here (once per process and
 * PATH): slirp4netns for user-mode networking, and util-linux's nsenter with iproute2's ip to shut
 * the host's addresses and the local networks out of the sandbox's routes.
 */
export function networkAvailability(path = process.env['PATH'] ?? ''): NetworkAvailability {
  let known = cachedNetwork.get(path);
  if (!known) {
    const slirp4netns = which('slirp4netns', path);
    const nsenter = which('nsenter', path);
    const ip = which('ip', path);
    known = !slirp4netns
      ? { ok: false, reason: 'slirp4netns is not installed (not found on PATH; apt-get install slirp4netns)' }
      : !nsenter || !ip
        ? { ok: false, reason: `${!nsenter ? 'nsenter (util-linux)' : 'ip (iproute2)'} is not installed (not found on PATH)` }
        : { ok: true, tools: { slirp4netns, nsenter, ip } };
    cachedNetwork.set(path, known);
  }
  return known;
}
