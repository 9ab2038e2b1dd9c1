/**
 * Whether one hostile agent can freeze the server (issue 25, item 3): a real server (`node
 * bin/tiltyard.js serve`, after scripts/build-if-stale.mjs) plays two games of `--rounds` rounds
 * against balanced at the server's default pace, one after the other, while GET /health is asked
 * every ~100 ms: first a baseline, a quiet skill seat that answers pass
 * at once (it also pays the server's first-game costs: the sandbox probe, warming up), then the
 * same game with the asset-flood skill in that seat (test/agents/fixtures/skills/asset-flood:
 * before every answer, an asset path of 60,000 components, one of 10 KB, 3,000 assets and 20,000
 * one-key state patches). Both skills answer pass in every window, so outside actions the engine
 * rejects the answer, asks again and passes. Target (quiet machine): no /health slower than 1 s
 * during the flood game. Prints one JSON object; on a busy machine compare the two games.
 *
 *   npm run bench:asset-flood
 *   npm run bench:asset-flood -- --rounds 5 --seed 3
 *
 * Measured (load 8–10 on 2 cores, 3 rounds, seed 7): flood game 16 invocations, /health max
 * 120 ms, p99 52 ms, none over 1 s; baseline max 548 ms (its first request, as the first game
 * starts). Before the fix a single invocation of the flood held the event loop for 40–70 s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/index.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, seed: { type: 'string', default: '7' } } });
const rounds = Number(values.rounds);
const seed = Number(values.seed);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive whole number');

const root = join(import.meta.dirname, '..');
const FLOOD = join(root, 'test', 'agents', 'fixtures', 'skills', 'asset-flood');
const token = randomBytes(16).toString('hex');
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-bench-asset-flood-'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The baseline skill: bench/fixtures/persistent-agent.mjs answers each request line with a pass, one-shot too. */
function quietSkill(): string {
  const dir = join(tmp, 'quiet-pass');
  mkdirSync(dir);
  const script = join(root, 'bench', 'fixtures', 'persistent-agent.mjs');
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: quiet-pass\ndescription: passes at once\nmetadata:\n  command: node ${script}\n  fallback: random\n---\n`);
  return dir;
}

const dataDir = join(tmp, 'data');
// The embedded database in a fresh folder, for the server and for reading its traces here, whatever this shell points DATABASE_URL at.
delete process.env['DATABASE_URL'];
const env: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DATA_DIR: dataDir, TILTYARD_ADMIN_TOKEN: token, TILTYARD_DEMO: 'off', TILTYARD_LOG: 'warn' };
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-if-stale.mjs')], { cwd: root, env, stdio: 'inherit' });
if (build.status !== 0) throw new Error(`build-if-stale exited ${build.status}`);

const server = spawn(process.execPath, [join(root, 'bin', 'tiltyard.js'), 'serve', '--port', '0', '--no-demo'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
let stderr = '';
server.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
const exited = new Promise((r) => server.once('exit', r));

type Watched = { gameId: string; status: string; seconds: number; events: unknown; latencies: number[]; sentAt: number[] };

try {
  let url: string | undefined;
  for (let i = 0; !url; i++) {
    if (i > 2_400) throw new Error(`the server did not start:\n${stderr}`);
    url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    await sleep(50);
  }
  const baseline = await watchGame(url, quietSkill());
  const flood = await watchGame(url, FLOOD);
  server.kill('SIGTERM');
  await exited;
  console.log(
    JSON.stringify(
      {
        rounds,
        seed,
        baseline: { ...figures(baseline), invocations: (await skillTraces(baseline.gameId)).length },
        flood: { ...figures(flood), ...(await floodsIn(flood.gameId)) },
        loadavg_1m: Number(loadavg()[0]!.toFixed(2)),
      },
      null,
      2,
    ),
  );
} finally {
  server.kill('SIGTERM');
  await exited;
  rmSync(tmp, { recursive: true, force: true });
}

/** Plays `skill` against balanced to the end, asking /health every ~100 ms meanwhile. */
async function watchGame(url: string, skill: string): Promise<Watched> {
  const admin = { authorization: `Bearer ${token}` };
  const created = await fetch(`${url}/games`, {
    method: 'POST',
    headers: { ...admin, 'content-type': 'application/json' },
    // The server's default pace (250 ms between steps), as a live game runs.
    body: JSON.stringify({ agents: [`skill:${skill}`, 'balanced'], seed, rules: { round_cap: rounds } }),
  });
  if (created.status !== 201) throw new Error(`POST /games: ${created.status} ${await created.text()}`);
  const { game_id: gameId } = (await created.json()) as { game_id: string };
  const started = performance.now();
  const latencies: number[] = [];
  const sentAt: number[] = [];
  // One request at a time: a stalled server shows as one long latency, not a pile-up.
  let over = false;
  const poller = (async () => {
    while (!over) {
      const t = performance.now();
      await (await fetch(`${url}/health`)).arrayBuffer();
      latencies.push(performance.now() - t);
      sentAt.push(t - started);
      await sleep(100);
    }
  })();
  let view: Record<string, unknown> = { status: 'running' };
  while (['created', 'queued', 'running'].includes(String(view['status']))) {
    await sleep(1_000);
    if (performance.now() - started > 30 * 60_000) throw new Error('the game did not end within 30 minutes');
    view = (await (await fetch(`${url}/games/${gameId}`, { headers: admin })).json()) as Record<string, unknown>;
  }
  over = true;
  await poller;
  return { gameId, status: String(view['status']), seconds: Math.round((performance.now() - started) / 1000), events: view['last_seq'] ?? null, latencies, sentAt };
}

/** What /health did during one game; `slowest`: when each was sent (s after the game was created) and how long it took. */
function figures(w: Watched) {
  const sorted = [...w.latencies].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
  const slowest = w.latencies
    .map((ms, i) => ({ at_s: Number((w.sentAt[i]! / 1000).toFixed(1)), ms: Math.round(ms) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  return {
    game: { id: w.gameId, status: w.status, seconds: w.seconds, events: w.events },
    health: { requests: sorted.length, max_ms: Math.round(sorted.at(-1) ?? 0), p99_ms: at(0.99), p50_ms: at(0.5), over_1s: sorted.filter((l) => l > 1_000).length, slowest },
  };
}

/** The skill seat's stored decision traces (read once the server has stopped). */
async function skillTraces(gameId: string): Promise<Array<{ entries: unknown }>> {
  const store = await openStore({ dataDir });
  try {
    return await store.readTraces(gameId, 'plr_1');
  } finally {
    await store.close();
  }
}

/** How many decisions the flood skill made, and in how many the 60,000-component path was refused. */
async function floodsIn(gameId: string): Promise<{ invocations: number; path_too_long_refusals: number }> {
  const traces = await skillTraces(gameId);
  const refused = traces.filter((t) => observedViolations(t.entries).some((v) => v.code === 'asset/path_too_long' && v.message.includes('"x60k"')));
  return { invocations: traces.length, path_too_long_refusals: refused.length };
}

type Stages = { stages?: Array<{ stage: string; payload: { violations?: Array<{ code: string; message: string }> } }> };

/** The violations a decision trace's observe stage lists. */
function observedViolations(entries: unknown): Array<{ code: string; message: string }> {
  return (entries as Stages).stages?.find((s) => s.stage === 'observe')?.payload.violations ?? [];
}
