import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifyGame } from '../../src/runner/verify-game.js';
import { openStore, type EventStore, type GameRecord } from '../../src/store/index.js';
import { tiltyardWith } from '../cli/run-cli.js';
import { spawnServer, until, type ServerProcess } from './spawn-server.js';

const ADMIN = 'restart-admin';
const GAMES = [
  ['balanced', 'aggressor', 'turtle'],
  ['manipulator', 'trickster'],
  ['random', 'balanced', 'aggressor', 'turtle'],
  ['trickster', 'turtle', 'random'],
  ['aggressor', 'manipulator', 'balanced', 'random', 'turtle', 'trickster'],
];

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-restart-'));
const dataDir = join(tmp, 'data');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The server as a user runs it, on one data folder; at most 3 games at once, so some wait. */
const ENV = {
  TILTYARD_DATA_DIR: dataDir,
  DATABASE_URL: undefined,
  TILTYARD_ADMIN_TOKEN: ADMIN,
  TILTYARD_DEMO: 'off',
  TILTYARD_MAX_GAMES: '3',
  TILTYARD_LOG: 'warn',
};

async function withStore<T>(fn: (s: EventStore) => Promise<T>): Promise<T> {
  const s = await openStore({ dataDir });
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

const get = async (server: ServerProcess, path: string) => {
  const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return (await res.json()) as { games: GameRecord[] };
};

describe('a server process killed mid-games', () => {
  it('given games created over HTTP, when the process is SIGKILLed mid-play and started again on the same data, then every game finishes and verifies', async () => {
    // Create the database first: killing PGlite's first initdb is not what this test is about.
    expect((await tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } }, 'games')).code).toBe(0);

    const first = await spawnServer(ENV);
    const ids: string[] = [];
    for (const agents of GAMES) {
      const res = await fetch(`${first.url}/games`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agents, pace_ms: 8 }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
      ids.push(((await res.json()) as { game_id: string }).game_id);
    }
    // Mid-play: games are well under way (at most three at once; the rest wait for a slot). On a
    // loaded machine a short game may end before the others get far, so this waits for progress,
    // not for a race against how fast any one game ends.
    await until('games under way', async () => {
      const { games } = await get(first, '/games?status=running');
      return games.filter((g) => g.last_seq >= 40).length >= 2 ? true : undefined;
    }, 60_000);
    first.child.kill('SIGKILL');
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });

    const before = await withStore(async (s) => {
      const games = await Promise.all(ids.map((id) => s.getGame(id)));
      for (const g of games) expect(await s.verifyChain(g.game_id), g.game_id).toBeNull();
      return games;
    });
    const midPlay = before.filter((g) => g.status === 'running' && g.last_seq >= 40);
    expect(midPlay.length).toBeGreaterThanOrEqual(2);
    const endedBefore = before.filter((g) => g.status === 'ended').length;
    const unstarted = before.filter((g) => g.status === 'created').length;

    const t0 = performance.now();
    const second = await spawnServer(ENV);
    const endedAfterMs = await until('every game to end', async () => {
      const { games } = await get(second, '/games?status=ended&limit=500');
      return ids.every((id) => games.some((g) => g.game_id === id)) ? performance.now() - t0 : undefined;
    }, 180_000, 200);
    second.child.kill('SIGTERM');
    const exit = await second.exited;
    expect(exit, second.output().stderr).toEqual({ code: 0, signal: null });

    await withStore(async (s) => {
      for (const [i, id] of ids.entries()) {
        const g = await s.getGame(id);
        expect(g.status).toBe('ended');
        if (before[i]!.status !== 'ended') expect(g.last_seq).toBeGreaterThan(before[i]!.last_seq);
        const report = await verifyGame(s, id);
        expect(report.assertions.filter((a) => a.status === 'fail'), id).toEqual([]);
      }
    });
    // And as a user would check one: the CLI, on the same folder.
    const verify = await tiltyardWith({ cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } }, 'verify', ids[4]!);
    expect(verify.stdout).toMatch(/4\/4 assertions pass/);
    expect(verify.code).toBe(0);

    console.info(
      `restart test: ${ids.length} games (pace 8 ms, 3 at a time); SIGKILLed at heads ${before.map((g) => g.last_seq).join(', ')} (${unstarted} not started, ${endedBefore} already ended); ` +
        `first start listened in ${first.listeningMs.toFixed(0)} ms, restart in ${second.listeningMs.toFixed(0)} ms; all ${ids.length} ended ${(endedAfterMs / 1000).toFixed(1)} s after the restart`,
    );
  }, 300_000);
});
