import { spawn, type ChildProcessWithoutNullStreams, type StdioOptions } from 'node:child_process';
import type { Duplex } from 'node:stream';
import { attachNetwork, BLOCK_FD, INFO_FD, type AttachedNetwork, type Confined } from '../sandbox/index.js';

/** A confined command started: the child (stdin, stdout and stderr piped), and the network being attached to it. */
export type Started = { child: ChildProcessWithoutNullStreams; network: AttachedNetwork | null };

/**
 * Spawns what confine() returned as the leader of its own process group (detached, so one kill
 * reaches everything it forked). With the network opt-in, bwrap's info and block descriptors are
 * piped too and the network is attached (the agent waits for it; `network.ready` says whether it
 * came); it is taken down when the child exits. Throws as spawn does.
 *
 * @example
 * const { child, network } = spawnConfined(confined, cwd, env);
 * network?.ready.then((failed) => failed && killGroup(child.pid));
 */
export function spawnConfined(confined: Confined & { ok: true }, cwd: string, env: Record<string, string>): Started {
  const attach = confined.sandboxed ? confined.attach : null;
  const stdio: StdioOptions = attach ? ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'] : 'pipe';
  const child = spawn(confined.argv[0]!, confined.argv.slice(1), { cwd, env, detached: true, stdio }) as ChildProcessWithoutNullStreams;
  if (!attach) return { child, network: null };
  const network = attachNetwork(child, attach);
  child.once('exit', () => {
    network.stop();
    // Only now, with the sandbox gone: bwrap reads an early end of its block descriptor as "go".
    for (const fd of [INFO_FD, BLOCK_FD]) (child.stdio[fd] as Duplex | null)?.destroy();
  });
  return { child, network };
}
