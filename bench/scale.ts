/**
 * bench:scale — what scaling out buys, as ratios measured in one run (JSON on stdout):
 * 1. built-in tournament: 1 worker vs 2 workers (target ≥ 1.6× games/s);
 * 2. mock-LLM seats at BENCH_LATENCY_MS (200) per call: 4 workers × concurrency 8 vs in-process
 *    --concurrency 8 (target ≥ 3×);
 * 3. spectator delivery p99 (client receipt − committed_at), 1,000 socket.io clients: 2 API nodes
 *    fed by a worker over Redis vs one node playing the game in-process (target ≤ 1.2×).
 * Real processes over dist/, a fresh PostgreSQL database per run, the machine's Redis under a
 * prefix of its own. The machine's load average is reported: ratios from a loaded machine are rough.
 *
 *   npm run bench:scale -- --games 48 --llm-games 32 --clients 1000
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'tiltyard.js');
const ADMIN = 'bench-admin';
const PG = process.env['TILTYARD_TEST_PG'] ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const LATENCY = Number(process.env['BENCH_LATENCY_MS'] ?? 200);

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '48' },
    'llm-games': { type: 'string', default: '32' },
    clients: { type: 'string', default: '1000' },
    procs: { type: 'string', default: '4' },
    pace: { type: 'string', default: '100' },
    only: { type: 'string' },
  },
});
const only = values.only?.split(',');
const want = (k: string) => !only || only.includes(k);

const tmp = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const providers = join(tmp, 'providers.json');
writeFileSync(providers, JSON.stringify({ providers: { mock: { kind: 'mock', latency_ms: LATENCY } } }));
const procs: ChildProcess[] = [];
const dbs: string[] = [];

async function freshDb(): Promise<string> {
  const name = `tiltyard_bench_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  dbs.push(name);
  const u = new URL(PG);
  u.pathname = `/${name}`;
  // Migrate once, before several processes start on it.
  execFileSync(process.execPath, [bin, 'tournaments'], { env: { ...process.env, DATABASE_URL: u.toString(), REDIS_URL: '' }, stdio: 'ignore' });
  return u.toString();
}

function start(args: string[], env: Record<string, string>, ready: RegExp | null): Promise<{ child: ChildProcess; stderr: () => string; stdout: () => string; exited: Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, TILTYARD_LOG: 'warn', TILTYARD_PROVIDERS_FILE: providers, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  procs.push(child);
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const handle = { child, stderr: () => err, stdout: () => out, exited };
  return new Promise((resolve, reject) => {
    if (!ready) resolve(handle);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (ready?.test(err)) resolve(handle);
    });
    void exited.then((code) => (ready ? reject(new Error(`${args[0]} exited ${code}: ${err.slice(-1500)}`)) : undefined));
  });
}

const prefix = () => `bench_${randomBytes(5).toString('hex')}`;

/** One tournament through the CLI: in-process (workers = 0) or on `workers` workers; games per second. */
async function tournament(agents: string, games: number, workers: number, concurrency: number): Promise<{ games: number; seconds: number; games_per_s: number }> {
  const db = await freshDb();
  const p = prefix();
  const env: Record<string, string> = { DATABASE_URL: db, REDIS_URL: workers ? REDIS : '', TILTYARD_QUEUE_PREFIX: p };
  const ws = await Promise.all(Array.from({ length: workers }, () => start(['worker', '--concurrency', String(concurrency)], env, /^Tiltyard worker:/m)));
  const t0 = performance.now();
  const run = await start(['tournament', '--agents', agents, '--seats', '4', '--seeds', String(Math.max(1, Math.ceil(games / 4))), '--games', String(games), '--compact', '--concurrency', String(concurrency), '--json'], env, null);
  const code = await run.exited;
  const seconds = (performance.now() - t0) / 1000;
  for (const w of ws) w.child.kill('SIGTERM');
  await Promise.all(ws.map((w) => w.exited));
  if (code !== 0) throw new Error(`tournament exited ${code}: ${run.stderr().slice(-1500)}`);
  const played = (JSON.parse(run.stdout()) as { games: number }).games;
  return { games: played, seconds: Math.round(seconds * 10) / 10, games_per_s: Math.round((played / seconds) * 1000) / 1000 };
}

type Done = { deliveries: number; missed: number; duplicates: number; since_commit: Record<string, number> };

/** p99 of client receipt − committed_at over `clients` spectators spread over `urls`, for one game created on urls[0]. */
async function spectate(urls: string[], clients: number, nprocs: number): Promise<{ p50: number; p99: number; deliveries: number; missed: number; duplicates: number }> {
  const script = join(root, 'bench', 'fixtures', 'spectate-clients.mjs');
  const ready: Promise<void>[] = [];
  const done: Promise<Done>[] = [];
  const children: ChildProcess[] = [];
  for (let i = 0; i < nprocs; i++) {
    const child = spawn(process.execPath, [script, urls[i % urls.length]!, String(clients / nprocs)], { stdio: ['pipe', 'pipe', 'inherit'] });
    procs.push(child);
    children.push(child);
    let onReady!: () => void;
    let onDone!: (d: Done) => void;
    ready.push(new Promise((r) => (onReady = r)));
    done.push(new Promise((r) => (onDone = r)));
    createInterface({ input: child.stdout }).on('line', (l) => {
      const m = JSON.parse(l) as { type: string } & Done;
      if (m.type === 'ready') onReady();
      else onDone(m);
    });
  }
  await Promise.all(ready);
  const res = await fetch(`${urls[0]}/games`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: JSON.stringify({ agents: ['balanced', 'aggressor', 'manipulator', 'trickster'], seed: 7, pace_ms: Number(values.pace) }) });
  if (res.status !== 201) throw new Error(`POST /games: ${res.status} ${await res.text()}`);
  const { game_id } = (await res.json()) as { game_id: string };
  for (const c of children) c.stdin!.write(`${JSON.stringify({ gameId: game_id })}\n`);
  const results = await Promise.all(done);
  const hist = new Map<number, number>();
  for (const r of results) for (const [ms, n] of Object.entries(r.since_commit)) hist.set(Number(ms), (hist.get(Number(ms)) ?? 0) + n);
  const sorted = [...hist].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((s, [, n]) => s + n, 0);
  const at = (q: number) => {
    let seen = 0;
    for (const [ms, n] of sorted) if ((seen += n) >= q * total) return ms;
    return sorted.at(-1)?.[0] ?? 0;
  };
  const sum = (k: 'deliveries' | 'missed' | 'duplicates') => results.reduce((s, r) => s + r[k], 0);
  return { p50: at(0.5), p99: at(0.99), deliveries: sum('deliveries'), missed: sum('missed'), duplicates: sum('duplicates') };
}

async function spectators(scaled: boolean): Promise<Awaited<ReturnType<typeof spectate>>> {
  const db = await freshDb();
  const env: Record<string, string> = { DATABASE_URL: db, REDIS_URL: scaled ? REDIS : '', TILTYARD_QUEUE_PREFIX: prefix(), TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_DEMO: 'off' };
  const listening = /listening on (http:\/\/\S+)/;
  const nodes = await Promise.all(Array.from({ length: scaled ? 2 : 1 }, () => start(['serve', '--port', '0'], env, listening)));
  const workers = scaled ? [await start(['worker'], env, /^Tiltyard worker:/m)] : [];
  try {
    return await spectate(nodes.map((n) => listening.exec(n.stderr())![1]!), Number(values.clients), Number(values.procs));
  } finally {
    for (const p of [...workers, ...nodes]) p.child.kill('SIGTERM');
    await Promise.all([...workers, ...nodes].map((p) => p.exited));
  }
}

const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const report: Record<string, unknown> = { load_average_start: loadavg().map((l) => Math.round(l * 100) / 100), cores: (await import('node:os')).cpus().length };
try {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], { stdio: 'inherit' });
  const builtins = 'balanced,aggressor,turtle,manipulator,trickster';
  if (want('builtin')) {
    const one = await tournament(builtins, Number(values.games), 1, 1);
    const two = await tournament(builtins, Number(values.games), 2, 1);
    report['builtin_tournament'] = { one_worker: one, two_workers: two, speedup: ratio(two.games_per_s, one.games_per_s), target: '≥ 1.6' };
  }
  if (want('llm')) {
    const llm = 'llm:mock:a,llm:mock:b,llm:mock:c,llm:mock:d,llm:mock:e';
    const inProcess = await tournament(llm, Number(values['llm-games']), 0, 8);
    const scaled = await tournament(llm, Number(values['llm-games']), 4, 8);
    report['llm_tournament'] = { latency_ms: LATENCY, in_process_c8: inProcess, workers_4x8: scaled, speedup: ratio(scaled.games_per_s, inProcess.games_per_s), target: '≥ 3' };
  }
  if (want('spectate')) {
    const one = await spectators(false);
    const two = await spectators(true);
    report['spectators'] = { clients: Number(values.clients), pace_ms: Number(values.pace), one_node_in_process: one, two_nodes_redis: two, p99_ratio: ratio(two.p99, Math.max(1, one.p99)), target: '≤ 1.2' };
  }
  report['load_average_end'] = loadavg().map((l) => Math.round(l * 100) / 100);
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  for (const p of procs) if (p.exitCode === null) p.kill('SIGKILL');
  const c = new pg.Client({ connectionString: PG });
  await c.connect();
  for (const name of dbs) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await c.end();
  rmSync(tmp, { recursive: true, force: true });
}
