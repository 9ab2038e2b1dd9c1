import { execFile } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLease, leaseKey } from '../../src/scale/coordinator-lease.js';
import { createTournament } from '../../src/tournament/create.js';
import { bin } from '../cli/run-cli.js';
import { openPostgresStore, postgresAvailable } from '../store/support.js';
import { freshPrefix, spawnWorker, stop } from './support.js';

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
});
