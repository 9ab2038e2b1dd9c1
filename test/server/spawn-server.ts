import { spawn, type ChildProcess } from 'node:child_process';
import { bin } from '../cli/run-cli.js';

/** A real `tiltyard serve` process (over dist/, built by the global setup). */
export type ServerProcess = {
  child: ChildProcess;
  /** http://127.0.0.1:<port>, read from its start-up summary. */
  url: string;
  /** ms from spawn until it printed that summary (it is listening then). */
  listeningMs: number;
  /** When it was spawned (performance.now()). */
  spawnedAt: number;
  output: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/**
 * Spawns `node bin/tiltyard.js serve --port 0` with `env` layered on this process's environment
 * (undefined unsets) and resolves once it listens, or rejects with its output if it exits first.
 */
export function spawnServer(env: Record<string, string | undefined>, args: string[] = [], options: { cwd?: string } = {}): Promise<ServerProcess> {
  const full: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DEBUG: '' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete full[k];
    else full[k] = v;
  }
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { env: full, stdio: ['ignore', 'pipe', 'pipe'], ...(options.cwd ? { cwd: options.cwd } : {}) });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve({ child, url: m[1]!, listeningMs: performance.now() - spawnedAt, spawnedAt, output: () => ({ stdout, stderr }), exited });
    });
    void exited.then((e) => reject(new Error(`the server exited (${e.code ?? e.signal}) before listening:\n${stderr}\n${stdout.slice(-2000)}`)));
  });
}

/** Polls `probe` every `everyMs` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs = 50): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
