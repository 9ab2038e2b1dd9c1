import { spawn, type ChildProcess } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import type { Failure } from '../runtime/outcome.js';
import type { NetworkTools } from './availability.js';
import { BLOCK_FD, INFO_FD } from './bwrap-argv.js';

/**
 * IPv4 ranges that are never the internet: this network, private networks, CGNAT, link-local
 * (where clouds serve instance credentials, 169.254.169.254), IETF and benchmarking blocks,
 * multicast and reserved. Loopback needs no entry: inside the sandbox it is its own, and empty.
 */
export const LOCAL_RANGES = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/4',
  '240.0.0.0/4',
];

/** slirp4netns's network inside the sandbox: the gateway (.2, the host) and DNS (.3) live here. */
const SLIRP_CIDR = '10.0.2.0/24';
const SANDBOX_ADDRESS = '10.0.2.100/24';
const GATEWAY = '10.0.2.2';
const MTU = 65520;
/** How long attaching the network may take before the agent is failed instead. */
const SETUP_TIMEOUT_MS = 10_000;

const ipv4 = (a: string): number => a.split('.').reduce((n, part) => n * 256 + Number(part), 0);
const dotted = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/**
 * Where a sandbox with the network opt-in must not go: the local ranges, every IPv4 address of
 * this host (a service listening on 0.0.0.0 answers on each) and the networks its interfaces are
 * on. What is left is the internet. (No IPv6 is given to the sandbox at all.)
 *
 * @example blockedNetworks({ eth0: [{ family: 'IPv4', address: '192.0.2.2', cidr: '192.0.2.2/24', internal: false, … }] })
 * // [...LOCAL_RANGES, '192.0.2.2/32', '192.0.2.0/24']
 */
export function blockedNetworks(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const out = new Set(LOCAL_RANGES);
  for (const info of Object.values(interfaces).flat()) {
    if (!info || info.family !== 'IPv4' || info.internal) continue;
    out.add(`${info.address}/32`);
    const prefix = Number(info.cidr?.split('/')[1]);
    if (!Number.isInteger(prefix) || prefix < 8 || prefix >= 32) continue;
    const size = 2 ** (32 - prefix);
    out.add(`${dotted(Math.floor(ipv4(info.address) / size) * size)}/${prefix}`);
  }
  // The sandbox's own link to slirp stays: a host network that overlaps it is covered by its /32s.
  out.delete(SLIRP_CIDR);
  return [...out];
}

/** A network being attached to a sandbox: `ready` says whether the agent may start; `stop` ends it. */
export type AttachedNetwork = { ready: Promise<Failure | null>; stop(): void };

const failure = (message: string): Failure => ({ code: 'sandbox/network_setup', message: `the sandbox's network could not be set up: ${message}` });

/**
 * Gives a sandbox started with the network opt-in (bwrap-argv: it reports its pid on INFO_FD and
 * waits on BLOCK_FD) user-mode networking: slirp4netns on a tap device in the sandbox's own
 * network namespace, with the host's loopback shut off (`--disable-host-loopback`, so the gateway
 * 10.0.2.2 is not the host's 127.0.0.1); then, from outside (the agent holds no capability to
 * change them), the device's address, the default route through it and `prohibit` routes for
 * `blockedNetworks()`. Only then is the agent let go. A
 * failure leaves the agent blocked; the caller kills it.
 *
 * @example
 * const net = attachNetwork(child, tools);
 * const failed = await net.ready; // null: the agent runs, with the internet only
 * child.once('exit', () => net.stop());
 */
export function attachNetwork(child: ChildProcess, tools: NetworkTools, blocked: readonly string[] = blockedNetworks()): AttachedNetwork {
  let slirp: ChildProcess | null = null;
  let stopped = false;
  // The block descriptor is never closed here: bwrap would take its end as "go". A failure leaves
  // the agent waiting, without a network (slirp4netns gone takes the tap device with it).
  const stop = (): void => {
    stopped = true;
    // Closing its exit fd ends slirp4netns; the signal makes sure.
    (slirp?.stdio[4] as Writable | null | undefined)?.destroy();
    slirp?.kill('SIGTERM');
  };
  const ready = new Promise<Failure | null>((done) => {
    let settled = false;
    const timer = setTimeout(() => settle(failure(`not ready within ${SETUP_TIMEOUT_MS} ms`)), SETUP_TIMEOUT_MS);
    const settle = (f: Failure | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (f) stop();
      done(f);
    };
    const info = child.stdio[INFO_FD] as Readable | null;
    if (!info) return settle(failure('bwrap was not given its info descriptor'));
    let text = '';
    const onInfo = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const pid = /"child-pid"\s*:\s*(\d+)/.exec(text)?.[1];
      if (!pid) return;
      info.off('data', onInfo);
      startSlirp(Number(pid));
    };
    info.on('data', onInfo);
    info.once('end', () => {
      if (!text.includes('child-pid')) settle(failure('the sandbox ended before it reported its pid'));
    });

    const startSlirp = (pid: number): void => {
      if (stopped) return settle(failure('stopped'));
      // Not --configure: that also brings the sandbox's loopback up, racing bwrap, which sets it
      // up itself meanwhile and dies when it finds it done ("Failed RTM_NEWADDR"). `fence` does it.
      // It parses what the agent sends: its own sandbox (a mount namespace, capabilities dropped)
      // as root, where it runs privileged; not otherwise, where it holds no privilege to drop and
      // its sandbox fails now and then ("setegid(0)"). Seccomp always.
      const hardening = process.getuid?.() === 0 ? ['--enable-sandbox', '--enable-seccomp'] : ['--enable-seccomp'];
      const userns = ownUserns(pid) ? [`--userns-path=/proc/${pid}/ns/user`] : [];
      const proc = spawn(tools.slirp4netns, [`--mtu=${MTU}`, '--disable-host-loopback', ...hardening, '--ready-fd=3', '--exit-fd=4', ...userns, String(pid), 'tap0'], {
        stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
      });
      slirp = proc;
      let stderr = '';
      proc.stderr?.on('data', (c: Buffer) => void (stderr = (stderr + c.toString('utf8')).slice(-2000)));
      proc.once('error', (e) => settle(failure(`slirp4netns: ${e.message}`)));
      proc.once('exit', (code, signal) => settle(failure(`slirp4netns exited (${signal ?? `code ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' / ')}`)));
      (proc.stdio[3] as Readable).once('data', () => void fence(pid).then(settle));
    };

    /** slirp's tap device brought up and routed, the prohibit routes set, from outside; then the byte that lets bwrap start the agent. */
    const fence = async (pid: number): Promise<Failure | null> => {
      const routes = [
        `link set dev tap0 mtu ${MTU} up`,
        `addr add ${SANDBOX_ADDRESS} dev tap0`,
        `route add default via ${GATEWAY} dev tap0`,
        ...blocked.map((cidr) => `route add prohibit ${cidr}`),
        '',
      ].join('\n');
      const code = await new Promise<string | null>((resolve) => {
        // -batch stops at the first error: a fence with a hole must not let the agent start.
        const ip = spawn(tools.nsenter, [...namespaces(pid), '--', tools.ip, '-batch', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
        let err = '';
        ip.stderr.on('data', (c: Buffer) => void (err += c.toString('utf8')));
        ip.once('error', (e) => resolve(e.message));
        ip.once('close', (status) => resolve(status === 0 ? null : `ip route: ${err.trim() || `exit ${status}`}`));
        ip.stdin.on('error', () => undefined);
        ip.stdin.end(routes);
      });
      if (code !== null) return failure(code);
      if (stopped) return failure('stopped');
      const block = child.stdio[BLOCK_FD] as Writable | null;
      if (!block) return failure('bwrap was not given its block descriptor');
      block.on('error', () => undefined);
      block.end('1');
      return null;
    };
  });
  return { ready, stop };
}

/**
 * Whether the sandbox has a user namespace of its own (bwrap run by a user other than root),
 * which owns its network namespace and where we, its owner, hold the capabilities to configure it.
 */
function ownUserns(pid: number): boolean {
  const userns = (who: string) => {
    try {
      return readlinkSync(`/proc/${who}/ns/user`);
    } catch {
      return null;
    }
  };
  return userns('self') !== userns(String(pid));
}

/** nsenter's arguments to reach the sandbox's network namespace (through its user namespace, if it has one). */
function namespaces(pid: number): string[] {
  const args = ['--target', String(pid), '--net'];
  if (ownUserns(pid)) args.push('--user', '--preserve-credentials');
  return args;
}
