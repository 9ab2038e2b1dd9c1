/**
 * The process plumbing of bench:scale: spawns tiltyard processes over dist/, makes PostgreSQL
 * databases for them, bounds every phase by a timeout, and makes sure the run always ends with a
 * report or an error (never silently: a failure, a signal, a timeout or an event loop that ran dry
 * while a promise nobody settles was awaited all print what happened and in which phase).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'tiltyard.js');
const PG = process.env['TILTYARD_TEST_PG'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

/**
 * Every bench client connects and joins from this machine's one address: the servers' limits by
 * client address (TILTYARD_SOCKETS_PER_IP…, docs/security.md) are lifted for the benches.
 */
export const ONE_ADDRESS = { TILTYARD_SOCKETS_PER_IP: '1000000', TILTYARD_SOCKETS_MAX: '1000000', TILTYARD_JOINS_PER_MIN: '1000000' };

export const round = (n: number, digits = 1): number => Math.round(n * 10 ** digits) / 10 ** digits;
export const prefix = (): string => `bench_${randomBytes(5).toString('hex')}`;
const log = (line: string) => process.stderr.write(`bench:scale: ${line}\n`);

export type Bench = {
  report: Record<string, unknown>;
  providersFile: string;
  procs: ChildProcess[];
  dbs: string[];
  /** Runs one measurement, logged on stderr, failing after the phase timeout. */
  phase<T>(name: string, fn: () => Promise<T>): Promise<T>;
  /** Runs the bench: prints the report (or the error and the partial report), cleans up, sets the exit code. */
  main(fn: () => Promise<void>): Promise<void>;
};

export function bench(options: { providers: unknown; phaseTimeoutMs: number }): Bench {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-scale-'));
  const providersFile = join(tmp, 'providers.json');
  writeFileSync(providersFile, JSON.stringify({ providers: options.providers }));
  let current = 'start-up';
  let reported = false;
  const b: Bench = {
    report: {},
    providersFile,
    procs: [],
    dbs: [],
    async phase(name, fn) {
      current = name;
      log(`${name}… (load average ${loadavg().map((l) => round(l, 2)).join(' ')})`);
      const t0 = performance.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`phase "${name}" took longer than ${options.phaseTimeoutMs / 1000} s (BENCH_PHASE_TIMEOUT_S)`)), options.phaseTimeoutMs)));
      try {
        const out = await Promise.race([fn(), timeout]);
        log(`${name}: done in ${round((performance.now() - t0) / 1000)} s`);
        return out;
      } finally {
        clearTimeout(timer);
      }
    },
    async main(fn) {
      const print = (error?: string) => {
        if (reported) return;
        reported = true;
        if (error) b.report['error'] = error;
        process.stdout.write(`${JSON.stringify(b.report, null, 2)}\n`);
        if (error) log(`FAILED: ${error}`);
      };
      // Node exits with code 13 when the awaited main never settles and nothing else keeps it alive.
      process.on('exit', (code) => {
        if (!reported) process.stderr.write(`bench:scale: FAILED: exited with code ${code} during "${current}" before its report (an awaited promise nobody settled)\n`);
        for (const p of b.procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
      });
      for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
        process.once(sig, () => {
          print(`stopped by ${sig} during "${current}"`);
          void cleanup(b, tmp).finally(() => process.exit(sig === 'SIGINT' ? 130 : 143));
        });
      }
      process.on('uncaughtException', (e) => {
        print(`uncaught during "${current}": ${e.stack ?? String(e)}`);
        void cleanup(b, tmp).finally(() => process.exit(1));
      });
      try {
        await fn();
        print();
      } catch (e) {
        print(`${current}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        process.exitCode = 1;
      } finally {
        await cleanup(b, tmp);
      }
    },
  };
  return b;
}

async function cleanup(b: Bench, tmp: string): Promise<void> {
  for (const p of b.procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
  const c = new pg.Client({ connectionString: PG, connectionTimeoutMillis: 5_000 });
  try {
    await c.connect();
    for (const name of b.dbs.splice(0)) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  } catch (e) {
    log(`could not drop the bench databases ${b.dbs.join(', ')}: ${String(e)}`);
  } finally {
    await c.end().catch(() => undefined);
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A fresh database, migrated once before several processes start on it. */
export async function freshDb(b: Bench): Promise<string> {
  const name = `tiltyard_bench_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  b.dbs.push(name);
  const u = new URL(PG);
  u.pathname = `/${name}`;
  execFileSync(process.execPath, [bin, 'tournaments'], { env: { ...process.env, DATABASE_URL: u.toString(), REDIS_URL: '' }, stdio: ['ignore', 'ignore', 'inherit'] });
  return u.toString();
}

/** Seconds from the first game created to the last game ended, in that database. */
export async function playSpan(db: string): Promise<number> {
  const c = new pg.Client({ connectionString: db });
  await c.connect();
  try {
    const { rows } = await c.query<{ s: string | null }>(`SELECT EXTRACT(EPOCH FROM max(ended_at) - min(created_at)) AS s FROM games`);
    const s = Number(rows[0]?.s);
    if (!(s > 0)) throw new Error(`no play span in ${db}: ${JSON.stringify(rows)}`);
    return s;
  } finally {
    await c.end();
  }
}

export type Proc = { child: ChildProcess; stderr: () => string; stdout: () => string; exited: Promise<number | null> };

/** Spawns `tiltyard <args>`; resolves once stderr matches `ready` (at once when null), rejects if it exits first. */
export function start(b: Bench, args: string[], env: Record<string, string>, ready: RegExp | null): Promise<Proc> {
  const child = spawn(process.execPath, [...(process.env['BENCH_CPU_PROF'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['BENCH_CPU_PROF']] : []), bin, ...args], { env: { ...process.env, ...ONE_ADDRESS, TILTYARD_LOG: 'warn', TILTYARD_PROVIDERS_FILE: b.providersFile, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  b.procs.push(child);
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code, signal) => r(code ?? (signal ? 128 : null))));
  const handle: Proc = { child, stderr: () => err, stdout: () => out, exited };
  return new Promise((resolve, reject) => {
    if (!ready) resolve(handle);
    child.on('error', reject);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (ready?.test(err)) resolve(handle);
    });
    void exited.then((code) => (ready && !ready.test(err) ? reject(new Error(`${args[0]} exited ${code} before it was ready: ${err.slice(-1500)}`)) : undefined));
  });
}
