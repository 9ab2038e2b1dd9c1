import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { bin } from '../cli/run-cli.js';

/** A queue prefix no other test (or engineer) uses: tests share the machine's Redis. */
export const freshPrefix = (tag: string): string => `tytest_${tag}_${randomBytes(5).toString('hex')}`;

export type Proc = {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Spawns the real bin with `env` over this process's (undefined unsets); resolves once stderr matches `ready`. */
export function spawnTiltyard(args: string[], env: Record<string, string | undefined>, ready: RegExp): Promise<Proc> {
  const full: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DEBUG: '' };
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete full[k];
    else full[k] = v;
  }
  const child = spawn(process.execPath, [bin, ...args], { env: full, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-200_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      out += d.toString();
      if (ready.test(err)) resolve({ child, output: () => out, exited });
    });
    void exited.then((e) => reject(new Error(`tiltyard ${args[0]} exited (${e.code ?? e.signal}) before it was ready:\n${out.slice(-3000)}`)));
  });
}

/** A `tiltyard worker` process on the given queue prefix and database. */
export const spawnWorker = (env: Record<string, string | undefined>, concurrency = 2): Promise<Proc> =>
  spawnTiltyard(['worker', '--concurrency', String(concurrency)], { TILTYARD_WORKER_LOCK_MS: '4000', TILTYARD_LOG: 'warn', ...env }, /^Tiltyard worker:/m);

/** A `tiltyard serve` process (an API node); its URL. */
export async function spawnNode(env: Record<string, string | undefined>): Promise<Proc & { url: string }> {
  const p = await spawnTiltyard(['serve', '--port', '0', '--no-demo'], { TILTYARD_LOG: 'warn', ...env }, /listening on (http:\/\/\S+)/);
  return { ...p, url: /listening on (http:\/\/\S+)/.exec(p.output())![1]! };
}

/** Polls `probe` until it returns something other than undefined; throws after `timeoutMs` (a hang detector). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 300_000, everyMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function stop(p: Proc | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null } | undefined> {
  if (!p) return undefined;
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exited;
}

/**
 * Database faults for a test database, from an admin connection: `refuse` stops new connections
 * (ALLOW_CONNECTIONS false) and `terminate` ends every backend of it; `close` lets connections
 * in again and ends the admin connection.
 */
export async function databaseFaults(adminUrl: string, databaseUrl: string) {
  const { default: pg } = await import('pg');
  const name = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const allow = (yes: boolean) => admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS ${yes}`);
  return {
    refuse: () => allow(false),
    allow: () => allow(true),
    /** How many backends were told to end. */
    terminate: async () => (await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [name])).rowCount ?? 0,
    async close() {
      await allow(true).catch(() => undefined);
      await admin.end();
    },
  };
}

/** A TCP port nothing listens on now (for a private redis-server). */
export const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

/**
 * A private redis-server (never the machine's shared one), without persistence: a restart comes
 * back empty. `readOnlyUntilPromoted`: it starts as a replica of a primary that is not there, as a
 * failed-over node can come back, refusing every write (READONLY) until `REPLICAOF NO ONE`.
 */
export async function startRedis(port: number, options: { readOnlyUntilPromoted?: boolean } = {}): Promise<ChildProcess> {
  const replica = options.readOnlyUntilPromoted ? ['--replicaof', '127.0.0.1', String(await freePort())] : [];
  const child = spawn('/usr/bin/redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...replica], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/Ready to accept connections/.test(out)) resolve();
    });
    child.on('exit', () => reject(new Error(`redis-server exited: ${out}`)));
  });
  return child;
}

/** Kills a process (SIGKILL) and waits until it is gone. */
export async function killed(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}
