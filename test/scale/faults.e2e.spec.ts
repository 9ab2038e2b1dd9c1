import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import seedrandom from 'seedrandom';
import { afterEach, describe, expect, it } from 'vitest';
import { createPersistentGame } from '../../src/runner/persistent-runner.js';
import { verifyGame } from '../../src/runner/verify-game.js';
import { GameQueue } from '../../src/scale/game-queue.js';
import type { EventStore } from '../../src/store/index.js';
import { openPostgresStore, postgresAvailable, type TestStore } from '../store/support.js';
import { expectSameAsUninterrupted } from '../support/same-log.js';
import { freePort, freshPrefix, killed, spawnWorker, startRedis, stop, until, type Proc } from './support.js';

/**
 * Faults of a scaled-out deployment, for real: workers SIGKILLed mid-game at seeded points, Redis
 * restarted (empty) mid-tournament, and one game delivered to two workers at once. Every game must
 * end, verify, and (with the logical clock) hash exactly as an uninterrupted run of its seed.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();
const TOURNAMENT = ['tournament', '--agents', 'balanced,aggressor,turtle,manipulator', '--seats', '2', '--seeds', '1', '--seed', '9', '--compact', '--clock', 'logical', '--progress', '--json'];

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
});

async function freshDb(): Promise<TestStore & { url: string }> {
  const db = await openPostgresStore();
  cleanup.push(() => db.dispose());
  return db;
}

function track<T extends Proc>(p: T): T {
  cleanup.push(() => stop(p, 'SIGKILL'));
  return p;
}

const eventCount = async (store: EventStore): Promise<number> => Number((await store.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM events`)[0]!.n);

async function expectAllVerify(store: EventStore, gameIds: readonly string[]): Promise<void> {
  for (const id of gameIds) {
    expect((await verifyGame(store, id)).assertions.filter((a) => a.status !== 'pass'), id).toEqual([]);
    const rows = (await store.prisma.$queryRaw<Array<{ n: bigint; d: bigint }>>`SELECT count(*) AS n, count(DISTINCT seq) AS d FROM events WHERE game_id = ${id}`)[0]!;
    expect([Number(rows.n), Number(rows.d)]).toEqual([(await store.getGame(id)).last_seq, (await store.getGame(id)).last_seq]);
  }
}

function runCoordinator(env: Record<string, string>, args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }>; progress: () => number; stderr: () => string } {
  const child = spawn(process.execPath, [new URL('../../bin/tiltyard.js', import.meta.url).pathname, ...args], { env: { ...process.env, ...env, TILTYARD_DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  cleanup.push(() => Promise.resolve(child.kill('SIGKILL')));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
  const progress = () => Math.max(0, ...[...stderr.matchAll(/^tournament \S+ game \S+ \S+ (?:ended|failed) \((\d+) done\)$/gm)].map((m) => Number(m[1])));
  return { child, done, progress, stderr: () => stderr };
}

describe.skipIf(!pgUp)('faults of a scaled-out deployment', () => {
  it('SIGKILL workers mid-game at seeded points (scale-kill-1): their games finish on other workers, verify, and equal an uninterrupted run', async () => {
    const random = seedrandom('scale-kill-1');
    const db = await freshDb();
    const env = { DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: freshPrefix('kill') };
    const workers = await Promise.all([0, 1, 2, 3].map(() => spawnWorker(env, 2).then(track)));
    const run = runCoordinator(env, [...TOURNAMENT, '--commit', 'step']);
    const kills: number[] = [];
    const spares: Array<Promise<Proc>> = [];
    for (let k = 0; k < 3; k++) {
      // A seeded number of further committed events, then one worker (seeded) dies with its games mid-way.
      const target = (await eventCount(db.store)) + 5 + Math.floor(random() * 25);
      const reached = await until(`${target} events stored`, async () => ((await eventCount(db.store)) >= target ? true : run.child.exitCode !== null ? false : undefined), 600_000, 20);
      if (!reached) break;
      const victim = Math.floor(random() * workers.length);
      workers[victim]!.child.kill('SIGKILL');
      await workers[victim]!.exited;
      kills.push(target);
      // A replacement starts in the background (slow on a loaded machine); the others carry on meanwhile.
      spares.push(spawnWorker(env, 2).then(track));
      workers.splice(victim, 1);
    }
    await Promise.all(spares);
    const out = await run.done;
    expect(out.code, out.stderr.slice(-2000)).toBe(0);
    expect(kills.length, 'every kill landed before the tournament ended').toBe(3);
    const result = JSON.parse(out.stdout) as { tournament_id: string; games: number; failed: number };
    expect(result).toMatchObject({ games: 12, failed: 0 });
    const ids = (await db.store.tournaments.games(result.tournament_id)).map((g) => g.game_id);
    expect(ids.length).toBe(12);
    await expectAllVerify(db.store, ids);
    await expectSameAsUninterrupted(db.store, ids);
    console.info(`scale kill test: SIGKILLed a worker at ${kills.join(', ')} stored events; 12 games equal an uninterrupted run`);
  }, 900_000);

  it('restart Redis (empty) mid-tournament, back as a read-only replica until promoted (a failover): no game fails, the tournament finishes, every game verifies and equals an uninterrupted run', async () => {
    const db = await freshDb();
    const port = await freePort();
    let redis = await startRedis(port);
    cleanup.push(() => Promise.resolve(redis.kill('SIGKILL')));
    const env = { DATABASE_URL: db.url, REDIS_URL: `redis://127.0.0.1:${port}`, TILTYARD_QUEUE_PREFIX: freshPrefix('redis') };
    await Promise.all([0, 1].map(() => spawnWorker(env, 2).then(track)));
    const run = runCoordinator(env, [...TOURNAMENT, '--commit', 'step']);
    await until('3 games done', () => Promise.resolve(run.progress() >= 3 ? true : undefined), 600_000, 20);
    await killed(redis);
    // Back empty, refusing every write (READONLY): the coordinator cannot queue the games again.
    redis = await startRedis(port, { readOnlyUntilPromoted: true });
    await until('the coordinator refused a write', () => Promise.resolve(/Redis does not answer the queue|failed \(\d+ done\)/.test(run.stderr()) || run.child.exitCode !== null ? true : undefined), 600_000, 20);
    const admin = new Redis(`redis://127.0.0.1:${port}`);
    await admin.call('REPLICAOF', 'NO', 'ONE');
    admin.disconnect();
    const out = await run.done;
    expect(out.code, out.stderr.slice(-2000)).toBe(0);
    const result = JSON.parse(out.stdout) as { tournament_id: string; games: number; failed: number };
    expect(result).toMatchObject({ games: 12, failed: 0 });
    const ids = (await db.store.tournaments.games(result.tournament_id)).map((g) => g.game_id);
    await expectAllVerify(db.store, ids);
    await expectSameAsUninterrupted(db.store, ids);
  }, 900_000);

  it('a job delivered twice (on two queues, to two workers at once) writes each event once; the loser stops cleanly', async () => {
    const db = await freshDb();
    const gameId = await createPersistentGame(db.store, { seed: 77, agents: ['balanced', 'aggressor', 'turtle', 'manipulator'], options: { pace_ms: 25 } });
    const [p1, p2] = [freshPrefix('twice'), freshPrefix('twice')];
    const workers = await Promise.all([p1, p2].map((prefix) => spawnWorker({ DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: prefix, TILTYARD_LOG: 'info' }, 1).then(track)));
    const queues = [p1, p2].map((prefix) => new GameQueue({ redisUrl: REDIS, prefix }));
    cleanup.push(() => Promise.all(queues.map((q) => q.close())));
    const followed = await Promise.all(queues.map((q) => q.follow(db.store, { game_id: gameId, mode: 'live' })));
    expect(followed.map((g) => g?.status)).toEqual(['ended', 'ended']);
    await expectAllVerify(db.store, [gameId]);
    // Both workers played it at once: one of them lost a (game_id, seq) race and was put off, not failed.
    await until('both jobs to complete', async () => {
      const states = await Promise.all(queues.map((q) => q.state()));
      return states.every((s) => s.queue && s.queue.active + s.queue.waiting + s.queue.delayed === 0) ? states : undefined;
    }, 120_000, 200);
    const states = await Promise.all(queues.map((q) => q.state()));
    expect(states.map((s) => s.queue?.failed)).toEqual([0, 0]);
    const logs = workers.map((w) => w.output()).join('\n');
    expect(logs).toMatch(/another run of this game wrote first/);
  }, 600_000);
});
