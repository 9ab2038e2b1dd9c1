/**
 * One client opening many socket.io connections at once against a real server (`tiltyard serve`
 * over dist/, rebuilt first if src/ changed) with its default limits, or those of the environment
 * (TILTYARD_SOCKETS_PER_IP…). The connections come from a separate process
 * (bench/fixtures/socket-flood-clients.mjs); this one polls /health throughout. Prints one JSON
 * object: how many connections were accepted and refused (and why), how many TCP connections the
 * server still holds once they settled, its RSS before the flood and then, and /health's latency
 * meanwhile. On a shared machine RSS and latency are noisy; the counts are not.
 *
 *   npm run bench:socket-flood
 *   npm run bench:socket-flood -- --connections 2000 --demo
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { setup as buildIfStale } from '../test/cli/global-setup.js';
import { spawnServer } from '../test/server/spawn-server.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '500' },
    /** Keep the demo table playing, as a fresh install does. */
    demo: { type: 'boolean', default: false },
    /** How long to keep the connections (and the /health polling) after they all settled. */
    'hold-ms': { type: 'string', default: '2000' },
  },
});
const connections = Number(values.connections);
const holdMs = Number(values['hold-ms']);

type Settled = { type: 'settled'; accepted: number; refused: number; messages: Record<string, number> };

/** Resident set size of a process in MB (Linux). */
function rssMb(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Math.round(Number(kb) / 102.4) / 10;
}

/** TCP connections established to this local port (Linux, IPv4): what the server holds open. */
function establishedTo(port: number): number {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => {
      const [, local, , state] = l.trim().split(/\s+/);
      return local?.endsWith(`:${hex}`) && state === '01';
    }).length;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** GETs /health back to back (10 ms apart) until stopped: each answer's latency in ms. */
function pollHealth(url: string): { stop(): Promise<number[]> } {
  const ms: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t = performance.now();
      const res = await fetch(`${url}/health`);
      await res.arrayBuffer();
      ms.push(performance.now() - t);
      await sleep(10);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return ms;
    },
  };
}

function summary(ms: number[]): { n: number; p50: number; p99: number; max: number } {
  const s = [...ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0);
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: Math.round(s.at(-1) ?? 0) };
}

buildIfStale();
const dataDir = mkdtempSync(join(tmpdir(), 'bench-socket-flood-'));
const server = await spawnServer({ TILTYARD_DATA_DIR: dataDir, TILTYARD_DEMO: values.demo ? 'on' : 'off', TILTYARD_LOG: 'warn' });
const pid = server.child.pid!;
try {
  // Let the start's background work (resuming, the demo's first game) settle first.
  await sleep(2000);
  const before = rssMb(pid);
  const health = pollHealth(server.url);
  const t0 = performance.now();
  const clients = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'socket-flood-clients.mjs'), server.url, String(connections)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const settled = await new Promise<Settled>((resolve, reject) => {
    createInterface({ input: clients.stdout }).on('line', (l) => resolve(JSON.parse(l) as Settled));
    clients.on('exit', (code) => reject(new Error(`the client process exited (${code}) before settling`)));
  });
  const settleMs = Math.round(performance.now() - t0);
  await sleep(holdMs);
  const after = rssMb(pid);
  const held = establishedTo(Number(new URL(server.url).port));
  const latency = summary(await health.stop());
  clients.stdin.end();
  console.log(
    JSON.stringify({
      bench: 'socket-flood',
      connections,
      demo: values.demo,
      accepted: settled.accepted,
      refused: settled.refused,
      refusals: settled.messages,
      settle_ms: settleMs,
      /** Once settled, counting /health's keep-alive connection. */
      tcp_connections_held: held,
      rss_mb: { before, after, added: Math.round((after - before) * 10) / 10 },
      health_ms: latency,
    }),
  );
} finally {
  server.child.kill('SIGTERM');
  await server.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
