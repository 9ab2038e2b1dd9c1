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
 * Throughput is games over the play span read from the store (first game created → last game
 * ended), so process start-up and migrations do not count; the CLI's wall time is reported too.
 *
 * Sizes come from flags or the environment (flags win); a short run:
 *   BENCH_GAMES=8 BENCH_LLM_GAMES=32 BENCH_CLIENTS=100 npm run bench:scale
 *   npm run bench:scale -- --games 48 --llm-games 64 --clients 1000 --only builtin,llm
 * Progress goes to stderr. Any failure, timeout or signal prints an error on stderr and the partial
 * report (with `error`) on stdout, and exits non-zero: a run never ends silently.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { meterCpu } from './proc-cpu.js';
import { bench, freshDb, playSpan, prefix, round, start, type Proc } from './scale-harness.js';
import { spectate, type SpectateResult } from './scale-spectate.js';

const ADMIN = 'bench-admin';
const REDIS = process.env['BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const env = (k: string, d: string) => process.env[k] ?? d;

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: env('BENCH_GAMES', '200') },
    'llm-games': { type: 'string', default: env('BENCH_LLM_GAMES', '64') },
    clients: { type: 'string', default: env('BENCH_CLIENTS', '1000') },
    procs: { type: 'string', default: env('BENCH_PROCS', '4') },
    pace: { type: 'string', default: env('BENCH_PACE_MS', '100') },
    latency: { type: 'string', default: env('BENCH_LATENCY_MS', '200') },
    'phase-timeout': { type: 'string', default: env('BENCH_PHASE_TIMEOUT_S', '1800') },
    only: { type: 'string', default: env('BENCH_ONLY', 'builtin,llm,spectate') },
  },
});
const int = (name: keyof typeof values, min: number): number => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name}: expected a whole number ≥ ${min}, got ${values[name]}`);
  return n;
};
const sizes = { games: int('games', 1), llm_games: int('llm-games', 1), clients: int('clients', 1), procs: int('procs', 1), pace_ms: int('pace', 0), latency_ms: int('latency', 0) };
if (sizes.clients % sizes.procs) throw new Error('--clients must be a whole multiple of --procs');
const only = values.only.split(',');

const run = bench({ providers: { mock: { kind: 'mock', latency_ms: sizes.latency_ms } }, phaseTimeoutMs: int('phase-timeout', 1) * 1000 });
const report = run.report;
report['sizes'] = sizes;
report['load_average_start'] = loadavg().map(round);

type Throughput = { games: number; wall_s: number; play_s: number; games_per_s: number; cpu_ms_per_game: Record<string, number> };

/** One tournament through the CLI: in-process (workers = 0) or on `workers` workers of `concurrency`. */
async function tournament(agents: string, games: number, workers: number, concurrency: number): Promise<Throughput> {
  const db = await freshDb(run);
  const e: Record<string, string> = { DATABASE_URL: db, REDIS_URL: workers ? REDIS : '', TILTYARD_QUEUE_PREFIX: prefix() };
  const ws = await Promise.all(Array.from({ length: workers }, () => start(run, ['worker', '--concurrency', String(concurrency)], e, /^Tiltyard worker:/m)));
  const dbName = new URL(db).pathname.slice(1);
  const coordinator: number[] = [];
  // From the coordinator's start (the workers are up and idle) to its exit, workers not yet stopped.
  const cpu = meterCpu([
    { role: 'workers', pids: ws.map((w) => w.child.pid!) },
    { role: 'coordinator', pids: coordinator },
    { role: 'postgres_backends', cmdline: new RegExp(`^postgres: .* ${dbName} `) },
    { role: 'redis_server_shared', cmdline: /^redis-server / },
    { role: 'postgres_background_shared', cmdline: /^postgres: \S+: (walwriter|checkpointer|background writer|autovacuum launcher|logical replication launcher)/ },
  ]);
  const t0 = performance.now();
  const cli = await start(run, ['tournament', '--agents', agents, '--seats', '4', '--seeds', String(Math.max(1, Math.ceil(games / 4))), '--games', String(games), '--compact', '--concurrency', String(concurrency), '--json'], e, null);
  coordinator.push(cli.child.pid!);
  const code = await cli.exited;
  const wall = (performance.now() - t0) / 1000;
  const cpuS = cpu.stop();
  await stopAll(ws);
  if (code !== 0) throw new Error(`tournament exited ${code}: ${cli.stderr().slice(-1500)}`);
  const played = (JSON.parse(cli.stdout()) as { games: number }).games;
  const span = await playSpan(db);
  const perGame = (s: number) => round((s * 1000) / played);
  const cpuMs = Object.fromEntries(Object.entries(cpuS).map(([k, s]) => [k, perGame(s)]));
  cpuMs['total_own'] = perGame(Object.entries(cpuS).reduce((a, [k, s]) => (k.endsWith('_shared') ? a : a + s), 0));
  return { games: played, wall_s: round(wall), play_s: round(span), games_per_s: round(played / span, 3), cpu_ms_per_game: cpuMs };
}

async function stopAll(ps: Proc[]): Promise<void> {
  for (const p of ps) p.child.kill('SIGTERM');
  await Promise.all(ps.map((p) => p.exited));
}

/** 1 node playing in-process, or 2 nodes over Redis with one worker playing the game. */
async function spectators(scaled: boolean): Promise<SpectateResult> {
  const db = await freshDb(run);
  const e: Record<string, string> = { DATABASE_URL: db, REDIS_URL: scaled ? REDIS : '', TILTYARD_QUEUE_PREFIX: prefix(), TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_DEMO: 'off' };
  const listening = /listening on (http:\/\/\S+)/;
  const nodes = await Promise.all(Array.from({ length: scaled ? 2 : 1 }, () => start(run, ['serve', '--port', '0'], e, listening)));
  const workers = scaled ? [await start(run, ['worker'], e, /^Tiltyard worker:/m)] : [];
  try {
    const urls = nodes.map((n) => listening.exec(n.stderr())![1]!);
    return await spectate(run, urls, { clients: sizes.clients, procs: sizes.procs, admin: ADMIN, game: { agents: ['balanced', 'aggressor', 'manipulator', 'trickster'], seed: 7, pace_ms: sizes.pace_ms } });
  } finally {
    await stopAll([...workers, ...nodes]);
  }
}

const ratio = (a: number, b: number) => round(a / b, 2);

await run.main(async () => {
  execFileSync(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'build-if-stale.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });
  const builtins = 'balanced,aggressor,turtle,manipulator,trickster';
  if (only.includes('builtin')) {
    // Each figure goes into the report as soon as it is measured: a later failure keeps it.
    const r: Record<string, unknown> = (report['builtin_tournament'] = { target: '≥ 1.6' });
    const one = (r['one_worker'] = await run.phase('builtin: 1 worker', () => tournament(builtins, sizes.games, 1, 1)));
    const two = (r['two_workers'] = await run.phase('builtin: 2 workers', () => tournament(builtins, sizes.games, 2, 1)));
    r['speedup'] = ratio(two.games_per_s, one.games_per_s);
  }
  if (only.includes('llm')) {
    const llm = 'llm:mock:a,llm:mock:b,llm:mock:c,llm:mock:d,llm:mock:e';
    const r: Record<string, unknown> = (report['llm_tournament'] = { latency_ms: sizes.latency_ms, target: '≥ 3' });
    const inProcess = (r['in_process_c8'] = await run.phase('llm: in-process c8', () => tournament(llm, sizes.llm_games, 0, 8)));
    const scaled = (r['workers_4x8'] = await run.phase('llm: 4 workers × 8', () => tournament(llm, sizes.llm_games, 4, 8)));
    r['speedup'] = ratio(scaled.games_per_s, inProcess.games_per_s);
  }
  if (only.includes('spectate')) {
    const r: Record<string, unknown> = (report['spectators'] = { clients: sizes.clients, pace_ms: sizes.pace_ms, target: '≤ 1.2' });
    const one = (r['one_node_in_process'] = await run.phase('spectate: 1 node in-process', () => spectators(false)));
    const two = (r['two_nodes_redis'] = await run.phase('spectate: 2 nodes over Redis', () => spectators(true)));
    r['p99_ratio'] = ratio(two.p99, Math.max(1, one.p99));
  }
  report['load_average_end'] = loadavg().map(round);
});
