import { execFile } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLease, ladderLeaseKey, leaseKey } from '../../src/scale/coordinator-lease.js';
import { createTournament } from '../../src/tournament/create.js';
import { bin } from '../cli/run-cli.js';
import { openPostgresStore, postgresAvailable } from '../store/support.js';
import { freshPrefix, spawnNode, spawnWorker, stop, until } from './support.js';

/**
 * Two coordinators of one tournament, for real: while another holds the tournament's lease,
 * `tiltyard tournament resume` refuses (naming the holder) and writes nothing; once it is
 * released, the same command coordinates the tournament to its end on a worker and lets go.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const pgUp = await postgresAvailable();
const redis = new Redis(REDIS, { maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

function tiltyard(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...process.env, TILTYARD_DEBUG: '', TILTYARD_LOG: 'warn', ...env } }, (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : error ? 1 : 0, stdout, stderr }));
  });
}

describe.skipIf(!pgUp)('coordinator lease across processes', () => {
  it('a second coordinator is refused while the lease is held, and runs the tournament once it is free', async () => {
    const db = await openPostgresStore();
    const prefix = freshPrefix('lease');
    const env = { DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: prefix };
    const worker = await spawnWorker(env, 2);
    try {
      const created = await createTournament(db.store, { format: 'round-robin', entrants: ['balanced', 'aggressor', 'turtle'], seats: 2, seeds: 1, compact: true, seed: 3, rules: { round_cap: 4 } });
      if (!created.ok) throw new Error(created.message);
      const id = created.tournament.tournament_id;
      const key = leaseKey(prefix, id);
      const holder = await acquireLease(redis, key, 'api node (test holder)', { ttlMs: 60_000, renewEveryMs: 3_600_000 });
      if ('held_by' in holder) throw new Error('the test could not take the lease');

      const refused = await tiltyard(['tournament', 'resume', id, '--json'], env);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr).toContain(`tournament ${id} is being coordinated by api node (test holder)`);
      expect(await db.store.tournaments.games(id)).toEqual([]);
      expect((await db.store.tournaments.get(id)).status).toBe('created');
      expect(await redis.get(key)).toBe('api node (test holder)');

      await holder.release();
      const ran = await tiltyard(['tournament', 'resume', id, '--json'], env);
      expect(ran.code, ran.stderr).toBe(0);
      expect(JSON.parse(ran.stdout)).toMatchObject({ tournament_id: id, status: 'ended', failed: 0 });
      const games = await db.store.tournaments.games(id);
      expect(games.length).toBeGreaterThan(0);
      expect(games.every((g) => g.state === 'ended')).toBe(true);
      expect(await redis.exists(key), 'the lease is let go at the end').toBe(0);
    } finally {
      await stop(worker);
      await db.dispose();
    }
  });

  it('`serve --ladder` with REDIS_URL waits while another node holds the ladder\'s lease, then plays its deals on a worker', async () => {
    const db = await openPostgresStore();
    const prefix = freshPrefix('ladder');
    const env = { DATABASE_URL: db.url, REDIS_URL: REDIS, TILTYARD_QUEUE_PREFIX: prefix, TILTYARD_PACE_MS: '0' };
    const ladder = await db.store.ladders.create({ name: 'on workers', seed: 5, seats: 2, compact: true, entrants: [{ agent: 'random' }, { agent: 'turtle' }] });
    const key = ladderLeaseKey(prefix, ladder.ladder_id);
    const holder = await acquireLease(redis, key, 'api node (test holder)', { ttlMs: 60_000, renewEveryMs: 3_600_000 });
    if ('held_by' in holder) throw new Error('the test could not take the lease');
    // Info logs: a worker says "game started" for each game it plays.
    const worker = await spawnWorker({ ...env, TILTYARD_LOG: 'info' }, 2);
    const node = await spawnNode({ ...env, TILTYARD_LOG: 'info', TILTYARD_LADDER: ladder.ladder_id, TILTYARD_LADDER_EVERY_MS: '1000' });
    try {
      await until('the node to see the lease held', () => Promise.resolve(node.output().includes('ladder coordinated elsewhere') ? true : undefined), 120_000);
      expect(await db.store.ladders.deals(ladder.ladder_id), 'no deal while another node coordinates').toEqual([]);

      await holder.release();
      const deal = await until('a deal counted', async () => (await db.store.ladders.deals(ladder.ladder_id)).find((d) => d.status === 'done'), 300_000, 200);
      expect(await redis.get(key)).toMatch(/^api node \(pid \d+/);
      expect(deal.games.map((g) => g.status)).toEqual(['ended', 'ended']);
      // Played by the worker, not in the API node: each game's start is in the worker's log only.
      for (const g of deal.games) {
        expect(worker.output().split('\n').some((l) => l.includes('"msg":"game started"') && l.includes(g.game_id)), g.game_id).toBe(true);
        expect(node.output()).not.toContain(`"game_id":"${g.game_id}"`);
      }
      expect(await stop(node)).toEqual({ code: 0, signal: null });
      expect(await redis.exists(key), 'the lease is let go on shutdown').toBe(0);
    } finally {
      await stop(node);
      await stop(worker);
      await db.dispose();
    }
  }, 600_000);
});
