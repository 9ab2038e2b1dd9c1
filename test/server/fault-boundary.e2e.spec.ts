import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, type GameRecord } from '../../src/store/index.js';
import { tiltyardWith } from '../cli/run-cli.js';
import { spawnServer, until, type ServerProcess } from './spawn-server.js';
import { Watcher } from './spectate-support.js';

const ADMIN = 'fault-admin';
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-fault-'));
const dataDir = join(tmp, 'data');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const ENV = { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined, TILTYARD_ADMIN_TOKEN: ADMIN, TILTYARD_DEMO: 'off', TILTYARD_LOG: 'warn' };
const SHORT = { round_cap: 3 };

/** A skill folder under tmp/skills: SKILL.md with `metadata`, and scripts/agent.sh when given. */
function skill(name: string, metadata: Record<string, string>, script?: string): string {
  const dir = join(tmp, 'skills', name);
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  const meta = Object.entries(metadata).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`).join('\n');
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: a test agent\nmetadata:\n${meta}\n---\n`);
  if (script) {
    writeFileSync(join(dir, 'scripts', 'agent.sh'), script);
    chmodSync(join(dir, 'scripts', 'agent.sh'), 0o755);
  }
  return dir;
}

/** The hostile agent: a decision nested 30,000 arrays deep (60 KB), every time it is asked. */
const deepAgent = skill(
  'deep-agent',
  { command: 'sh scripts/agent.sh', fallback: 'random', timeout_ms: '60000' },
  `#!/bin/sh\ncat > /dev/null\nawk 'BEGIN { n = 30000; printf "{\\"version\\":\\"0\\",\\"type\\":\\"state_patch\\",\\"patch\\":{\\"decision\\":"; for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]"; print "}}"; print "{\\"version\\":\\"0\\",\\"type\\":\\"done\\",\\"ok\\":true}" }'\n`,
);
/** A skill that loads but whose seat cannot be built: its model names no configured provider. */
const badModel = skill('bad-model', { llm: 'nosuch:model', fallback: 'random' });
/** A working agent whose folder is removed while its game is unfinished. */
const vanishing = join(tmp, 'skills', 'vanishing');
cpSync(resolve('skills/shell-example'), vanishing, { recursive: true });
writeFileSync(join(vanishing, 'SKILL.md'), readFileSync(join(vanishing, 'SKILL.md'), 'utf8').replace('name: shell-example', 'name: vanishing'));

/**
 * fetch, once more on ECONNRESET: this test waits long between requests, and fetch may reuse a
 * keep-alive socket in the instant the server's idle timeout closes it (no request reached it).
 */
async function call(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
    return fetch(url, init);
  }
}

async function api<T>(server: ServerProcess, path: string, init: RequestInit = {}): Promise<{ status: number; body: T }> {
  const res = await call(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  return { status: res.status, body: (await res.json()) as T };
}

async function post(server: ServerProcess, body: Record<string, unknown>): Promise<string> {
  const res = await api<GameRecord>(server, '/games', { method: 'POST', body: JSON.stringify(body) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.game_id;
}

const game = async (server: ServerProcess, id: string) => (await api<GameRecord>(server, `/games/${id}`)).body;
const healthy = async (server: ServerProcess) => expect((await call(`${server.url}/health`)).status).toBe(200);

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  expect((await server.exited).code).toBe(0);
}

describe('a fault boundary per game, on a real server process', () => {
  it('given an agent sending a 30,000-level state_patch every decision, a game whose seat cannot be built and one whose skill folder vanishes over a restart, then the server stays up, the neighbour plays on, the failing games end failed with their reason (REST, games, lobby), and no restart resumes them', async () => {
    // First life: the hostile game, a neighbour, a game failing at once, and one left mid-game.
    const a = await spawnServer(ENV);
    let deepId = '';
    let deepFailedReason = '';
    let vanishingId = '';
    try {
      const lobby = await Watcher.connect(a.url);
      lobby.socket.emit('lobby', { token: ADMIN });
      await lobby.next('lobby_joined');

      // The neighbour is paced so that it is still playing when the hostile game fails.
      const neighbourId = await post(a, { agents: ['balanced', 'turtle'], pace_ms: 500, rules: SHORT });
      deepId = await post(a, { agents: [`skill:${deepAgent}`, 'random'], pace_ms: 0, rules: SHORT });
      const badId = await post(a, { agents: [`skill:${badModel}`, 'random'], pace_ms: 0, rules: SHORT });
      vanishingId = await post(a, { agents: [`skill:${vanishing}`, 'random'], pace_ms: 60_000, rules: SHORT });

      // The strike policy: each over-deep answer is a protocol failure naming the limit (the seat's
      // fallback plays); the third fails the game, naming the seat, the agent and the limit.
      const deepNotice = await lobby.next('game_failed', (n) => n.game_id === deepId, 300_000);
      const deepFailed = await game(a, deepId);
      expect(deepFailed).toMatchObject({ status: 'failed', run_failures: 1 });
      expect(deepFailed.ended_at).not.toBeNull();
      for (const part of ['seat plr_1', `skill:${deepAgent}`, '3 times', 'protocol/too_deep', 'nesting deeper than 64 levels'])
        expect(deepFailed.failure_reason).toContain(part);
      expect(deepNotice.data.reason).toBe(deepFailed.failure_reason);
      deepFailedReason = deepFailed.failure_reason!;
      // The server is up and the neighbour, mid-game when the hostile one failed, plays on to its end.
      await healthy(a);
      expect((await game(a, neighbourId)).status).toBe('running');
      const neighbour = await until('the neighbour to end', async () => {
        const g = await game(a, neighbourId);
        return g.status === 'ended' ? g : undefined;
      }, 300_000, 100);
      expect(neighbour.placements).not.toBeNull();
      expect(Date.parse(neighbour.ended_at!)).toBeGreaterThan(Date.parse(deepFailed.ended_at!));
      expect(a.output().stdout).toContain('protocol/too_deep');

      // Failing three times in a row (1 s, then 2 s apart) makes it failed, and the lobby hears why.
      const notice = await lobby.next('game_failed', (n) => n.game_id === badId, 300_000);
      expect(notice.data.reason).toMatch(/no provider "nosuch"/);
      expect(await game(a, badId)).toMatchObject({ status: 'failed', run_failures: 3, failure_reason: expect.stringMatching(/no provider "nosuch"/) as string });
      const anonymous = (await (await call(`${a.url}/games?status=failed`)).json()) as { games: GameRecord[] };
      expect(anonymous.games.map((g) => g.game_id).sort()).toEqual([badId, deepId].sort());
      expect(anonymous.games.find((g) => g.game_id === badId)!.failure_reason).toMatch(/nosuch/);
      lobby.close();

      await until('the vanishing game to commit a step', async () => ((await game(a, vanishingId)).last_seq > 0 ? true : undefined), 300_000, 100);
      await healthy(a);
    } finally {
      await stop(a);
    }

    // What the hostile agent left in the store: its traces name the bound, three strikes of it.
    const store = await openStore({ dataDir });
    try {
      const traces = await store.readTraces(deepId, 'plr_1');
      const first = traces[0]!.entries as { failure: { code: string; message: string } };
      expect(first.failure).toEqual({ code: 'protocol/too_deep', message: 'event 1 refused: nesting deeper than 64 levels' });
      const strikes = traces.filter((t) => (t.entries as { failure: { code: string } | null }).failure?.code === 'protocol/too_deep');
      expect(strikes).toHaveLength(3);
    } finally {
      await store.close();
    }

    // Second life, without the skill folder: the resume fails each time until the game is failed.
    rmSync(vanishing, { recursive: true, force: true });
    const b = await spawnServer(ENV);
    try {
      const failed = await until('the vanishing game to be failed', async () => {
        const g = await game(b, vanishingId);
        return g.status === 'failed' ? g : undefined;
      }, 300_000, 100);
      expect(failed.run_failures).toBe(3);
      expect(failed.failure_reason).toContain('vanishing');
      expect(failed.ended_at).not.toBeNull();
      // The hostile game stays failed: not resumed into another crash.
      expect(await game(b, deepId)).toMatchObject({ status: 'failed', run_failures: 1 });
      await healthy(b);
    } finally {
      await stop(b);
    }

    // `tiltyard games` shows it failed, with its reason.
    const listed = await tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } }, 'games');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${vanishingId} failed: .*vanishing`));
    const json = await tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } }, 'games', '--json');
    const row = (JSON.parse(json.stdout) as Array<{ game_id: string; status: string; failure_reason: string | null }>).find((g) => g.game_id === vanishingId);
    expect(row).toMatchObject({ status: 'failed', failure_reason: expect.stringContaining('vanishing') as string });
    expect(listed.stdout).toMatch(new RegExp(`${deepId} failed: seat plr_1 \\(skill:.*deep-agent\\) sent output over the protocol bounds 3 times`));

    // Third life: nothing to resume, the failed game untouched, the server healthy.
    const c = await spawnServer({ ...ENV, TILTYARD_LOG: 'info' });
    try {
      await healthy(c);
      const g = await game(c, vanishingId);
      expect(g).toMatchObject({ status: 'failed', run_failures: 3 });
      expect(await game(c, deepId)).toMatchObject({ status: 'failed', failure_reason: deepFailedReason });
      const running = (await api<{ games: GameRecord[] }>(c, '/games?status=running,created')).body.games;
      expect(running).toEqual([]);
      // Info logs name every game a server resumes or starts: this one is not among them.
      const logs = c.output().stdout;
      expect(logs).toContain('listening');
      expect(logs).not.toContain('resuming');
      expect(logs).not.toContain(vanishingId);
      expect(logs).not.toContain(deepId);
    } finally {
      await stop(c);
    }
  }, 900_000);
});
