/**
 * 1,000 socket.io spectators following one live game at its natural pace, on loopback: the real
 * server (`node bin/tiltyard.js serve` over dist/, rebuilt first if src/ changed: tsx would drop
 * the decorator metadata Nest needs) and the clients in separate processes
 * (bench/fixtures/spectate-clients.mjs). Each delivery's latency is the client's clock at receipt
 * minus the event's committed_at (stamped by the server when the step committed; same machine,
 * same clock), so it covers projection, fan-out and transport. Prints one JSON object; the target
 * is p99 < 250 ms with no missed or duplicate seq.
 *
 *   npm run bench:spectate
 *   npm run bench:spectate -- --clients 400 --procs 2 --pace 100
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ONE_ADDRESS } from './scale-harness.js';

const TARGET_P99_MS = 250;
const ADMIN = 'bench-admin';
const root = join(import.meta.dirname, '..');

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    procs: { type: 'string', default: '4' },
    /** Milliseconds between steps; the server's default (TILTYARD_PACE_MS, 250) when absent. */
    pace: { type: 'string' },
    agents: { type: 'string', default: 'balanced,aggressor,manipulator,trickster' },
    seed: { type: 'string', default: '7' },
  },
});
const clients = Number(values.clients);
const procs = Number(values.procs);
if (!Number.isInteger(clients) || !Number.isInteger(procs) || clients < 1 || procs < 1 || clients % procs) throw new Error('--clients must be a whole multiple of --procs');

type Done = { type: 'done'; clients: number; deliveries: number; missed: number; duplicates: number; resyncs: number; errors: number; disconnects: number; first_at: number; last_at: number; since_commit: Record<string, number>; since_send: Record<string, number> };
type Line = { type: 'ready' } | Done;

/** Child stdout as JSON lines. */
function lines(child: ChildProcess, on: (line: Line) => void): void {
  createInterface({ input: child.stdout! }).on('line', (l) => on(JSON.parse(l) as Line));
}

/** Waits for the server to print where it listens. */
function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const env = { ...process.env, ...ONE_ADDRESS, TILTYARD_DATA_DIR: dataDir, TILTYARD_DEMO: 'off', TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_LOG: 'warn', ...(values.pace ? { TILTYARD_PACE_MS: values.pace } : {}) };
  const child = spawn(process.execPath, [join(root, 'bin', 'tiltyard.js'), 'serve', '--port', '0'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ child, url: m[1]! });
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${err}`)));
  });
}

/** utime + stime of a process, in ms (Linux). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function merge(into: Map<number, number>, hist: Record<string, number>): void {
  for (const [ms, n] of Object.entries(hist)) into.set(Number(ms), (into.get(Number(ms)) ?? 0) + n);
}

function percentiles(hist: Map<number, number>): { p50: number; p90: number; p99: number; max: number; n: number } {
  const sorted = [...hist].sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((s, [, c]) => s + c, 0);
  const at = (q: number) => {
    let seen = 0;
    for (const [ms, c] of sorted) if ((seen += c) >= q * n) return ms;
    return sorted.at(-1)?.[0] ?? 0;
  };
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted.at(-1)?.[0] ?? 0, n };
}

execFileSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], { stdio: 'inherit' });
const dataDir = mkdtempSync(join(tmpdir(), 'bench-spectate-'));
const server = await startServer(dataDir);
const children: ChildProcess[] = [];
try {
  const script = join(import.meta.dirname, 'fixtures', 'spectate-clients.mjs');
  const ready: Promise<void>[] = [];
  const done: Promise<Done>[] = [];
  for (let i = 0; i < procs; i++) {
    const child = spawn(process.execPath, [script, server.url, String(clients / procs)], { stdio: ['pipe', 'pipe', 'inherit'] });
    children.push(child);
    let onReady!: () => void;
    let onDone!: (d: Done) => void;
    ready.push(new Promise((r) => (onReady = r)));
    done.push(new Promise((r) => (onDone = r)));
    lines(child, (l) => (l.type === 'ready' ? onReady() : onDone(l)));
  }
  await Promise.all(ready);

  const res = await fetch(`${server.url}/games`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ agents: values.agents.split(','), seed: Number(values.seed) }),
  });
  if (res.status !== 201) throw new Error(`POST /games answered ${res.status}: ${await res.text()}`);
  const game = (await res.json()) as { game_id: string; options: { pace_ms: number } };
  const cpu0 = cpuMs(server.child.pid!);
  const t0 = Date.now();
  for (const c of children) c.stdin!.write(`${JSON.stringify({ gameId: game.game_id })}\n`);

  const results = await Promise.all(done);
  const wall = Date.now() - t0;
  const cpu = cpuMs(server.child.pid!) - cpu0;
  const stored = (await (await fetch(`${server.url}/games/${game.game_id}`)).json()) as { last_seq: number };
  const sinceCommit = new Map<number, number>();
  const sinceSend = new Map<number, number>();
  for (const r of results) {
    merge(sinceCommit, r.since_commit);
    merge(sinceSend, r.since_send);
  }
  const sum = (k: 'deliveries' | 'missed' | 'duplicates' | 'resyncs' | 'errors' | 'disconnects') => results.reduce((s, r) => s + r[k], 0);
  const span = (Math.max(...results.map((r) => r.last_at)) - Math.min(...results.map((r) => r.first_at))) / 1000;
  const latency = percentiles(sinceCommit);
  const { n: _n, ...send } = percentiles(sinceSend);
  console.log(
    JSON.stringify(
      {
        bench: 'spectate',
        clients,
        client_processes: procs,
        game: { game_id: game.game_id, events: stored.last_seq, pace_ms: game.options.pace_ms, duration_s: +(wall / 1000).toFixed(1) },
        deliveries: sum('deliveries'),
        deliveries_per_s: Math.round(sum('deliveries') / span),
        latency_ms: { p50: latency.p50, p90: latency.p90, p99: latency.p99, max: latency.max, measured: 'client receipt − committed_at' },
        since_emit_ms: { ...send, measured: 'client receipt − sent_at (the server’s emit)' },
        missed_seqs: sum('missed'),
        duplicate_seqs: sum('duplicates'),
        resyncs: sum('resyncs'),
        errors: sum('errors'),
        disconnects: sum('disconnects'),
        server_cpu_pct: Math.round((100 * cpu) / wall),
        target: { p99_ms: TARGET_P99_MS, met: latency.p99 < TARGET_P99_MS && sum('missed') === 0 && sum('duplicates') === 0 },
        machine: { cpu: cpus()[0]?.model, cores: cpus().length, memory_gib: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform}-${process.arch}` },
      },
      null,
      2,
    ),
  );
} finally {
  for (const c of children) c.kill();
  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
