import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { GameJobFailedError, GameQueue } from '../../src/scale/game-queue.js';
import { GAME_QUEUE } from '../../src/scale/settings.js';
import type { EventStore, GameRecord } from '../../src/store/index.js';
import { freePort, freshPrefix, killed, startRedis, until } from './support.js';

/**
 * GameQueue.follow against the machine's Redis, with a store that answers from a script: the
 * store is read before the queue, so a job that failed after its game settled (the worker's last
 * step stored, then its job failed) must not make a settled game a failed one.
 */
const REDIS = process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379';
const redis = new Redis(REDIS, { maxRetriesPerRequest: null });
afterAll(() => redis.quit());

/** A store whose getGame answers `statuses` in turn (the last one from then on), counting reads. */
function scriptedStore(gameId: string, statuses: GameRecord['status'][]): EventStore & { reads: number } {
  const store = {
    reads: 0,
    getGame: (id: string) => {
      expect(id).toBe(gameId);
      const status = statuses[Math.min(store.reads++, statuses.length - 1)]!;
      return Promise.resolve({ game_id: id, status, placements: status === 'ended' ? [] : null } as unknown as GameRecord);
    },
  };
  return store as unknown as EventStore & { reads: number };
}

/** Queues the game's job and lets a worker fail every run of it (JOB_RUNS); how many runs it took. */
async function failedJob(prefix: string, queue: GameQueue, gameId: string): Promise<number> {
  await queue.enqueue({ game_id: gameId, mode: 'live' });
  let runs = 0;
  const worker = new Worker(GAME_QUEUE, () => (runs++, Promise.reject(new Error('worker lost its database'))), { connection: redis.duplicate({ maxRetriesPerRequest: null }), prefix });
  try {
    await until('the job to fail', async () => ((await (await queue.queue.getJob(gameId))?.getState()) === 'failed' ? true : undefined), 120_000, 50);
  } finally {
    await worker.close();
  }
  return runs;
}

/** Job runs before a job counts as failed in these tests (5 in production), with a short backoff. */
const JOB_RUNS = 3;

/** A queue under a fresh prefix for the length of `fn`, closed afterwards. */
async function withQueue(fn: (queue: GameQueue, prefix: string) => Promise<void>): Promise<void> {
  const prefix = freshPrefix('follow');
  const queue = new GameQueue({ redisUrl: REDIS, prefix }, { jobs: { attempts: JOB_RUNS, backoffMs: 20 } });
  try {
    await fn(queue, prefix);
  } finally {
    await queue.close();
  }
}

describe('GameQueue.follow with a failed job', () => {
  it('returns the game when the store, read again, says it settled after the first read', () =>
    withQueue(async (queue, prefix) => {
      await failedJob(prefix, queue, 'game_settled');
      const store = scriptedStore('game_settled', ['running', 'ended']);
      const game = await queue.follow(store, { game_id: 'game_settled', mode: 'live' });
      expect(game?.status).toBe('ended');
      expect(store.reads).toBe(2);
    }));

  it('still fails a game whose job failed every run while the store says it is unsettled, with the reason and the runs', () =>
    withQueue(async (queue, prefix) => {
      // A run that throws is run again with backoff: the job fails only after its last run.
      expect(await failedJob(prefix, queue, 'game_stuck')).toBe(JOB_RUNS);
      const err = await queue.follow(scriptedStore('game_stuck', ['running']), { game_id: 'game_stuck', mode: 'live' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GameJobFailedError);
      expect((err as Error).message).toBe(`game game_stuck: its job failed on a worker ${JOB_RUNS} times: worker lost its database`);
    }));

  it('given a failed game put back in play (attempt 1), then it is queued as a new job beside the failed one', () =>
    withQueue(async (queue, prefix) => {
      await failedJob(prefix, queue, 'game_again');
      await queue.enqueue({ game_id: 'game_again', mode: 'live', attempt: 1 });
      expect(await (await queue.queue.getJob('game_again'))?.getState()).toBe('failed');
      expect(await (await queue.queue.getJob('game_again-r1'))?.getState()).toBe('waiting');
      expect((await queue.queue.getJob('game_again-r1'))?.data).toMatchObject({ game_id: 'game_again', attempt: 1 });
    }));
});

describe('GameQueue.follow with a deep queue', () => {
  it('does not read the store while the job waits in the queue, and reads it again once a worker has it', () =>
    withQueue(async (queue, prefix) => {
      let checks = 0;
      const getJob = queue.queue.getJob.bind(queue.queue);
      queue.queue.getJob = (id: string) => {
        checks++;
        return getJob(id);
      };
      const store = scriptedStore('game_waits', ['running', 'running', 'ended']);
      let worker: Worker | null = null;
      try {
        // Polls every 5 ms, the job looked at every 10th poll: dozens of polls while the job waits,
        // counted, not timed (the default 10-s look took 20 s here and over a minute on a loaded machine).
        const following = queue.follow(store, { game_id: 'game_waits', mode: 'live' }, { pollMs: 5, checkJobMs: 50 });
        await until('three looks at the waiting job', () => Promise.resolve(checks >= 3 ? true : undefined), 60_000, 5);
        expect(store.reads).toBe(1);
        worker = new Worker(GAME_QUEUE, () => Promise.resolve('played'), { connection: redis.duplicate({ maxRetriesPerRequest: null }), prefix });
        expect((await following)?.status).toBe('ended');
      } finally {
        await worker?.close();
      }
    }));
});


describe('GameQueue.follow through a Redis fault', () => {
  it('given Redis restarted empty and refusing writes for a while (READONLY, as a failed-over node comes back), then the game is not failed: the follower keeps trying, queues the job again once Redis takes writes, and follows it to its end', async () => {
    const port = await freePort();
    let server = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const problems: string[] = [];
    const queue = new GameQueue({ redisUrl: url, prefix: freshPrefix('fault') }, { onProblem: (what) => problems.push(what) });
    const admin = new Redis(url, { maxRetriesPerRequest: null });
    admin.on('error', () => {});
    let worker: Worker | null = null;
    try {
      // The store says running until a worker has played the game.
      let status: GameRecord['status'] = 'running';
      const store = { getGame: (id: string) => Promise.resolve({ game_id: id, status, placements: status === 'ended' ? [] : null } as unknown as GameRecord) } as unknown as EventStore;
      const following = queue.follow(store, { game_id: 'game_fault', mode: 'live' }, { pollMs: 50 });
      let outcome: string | null = null;
      following.then(
        (g) => (outcome = `settled ${g?.status}`),
        (e: unknown) => (outcome = `threw ${String(e)}`),
      );
      await until('the job queued', async () => ((await queue.queue.getJob('game_fault')) ? true : undefined), 60_000, 20);

      await killed(server);
      server = await startRedis(port, { readOnlyUntilPromoted: true });
      // The follower noticed the job is gone and was refused its writes, several times over.
      const refused = async () => Number(/errorstat_READONLY:count=(\d+)/.exec(await admin.info('errorstats'))?.[1] ?? 0);
      await until('three refused writes (or the follower giving up)', async () => (outcome !== null || (await refused()) >= 3 ? true : undefined), 120_000, 20);
      expect(outcome).toBe(null);

      await admin.call('REPLICAOF', 'NO', 'ONE');
      worker = new Worker(GAME_QUEUE, () => ((status = 'ended'), Promise.resolve('played')), { connection: admin.duplicate({ maxRetriesPerRequest: null }), prefix: queue.queue.opts.prefix! });
      expect((await following)?.status).toBe('ended');
      expect(problems).toEqual(['Redis does not answer the queue; following the games in the store and trying again', 'Redis answers the queue again']);
    } finally {
      await worker?.close();
      await queue.close();
      admin.disconnect();
      await killed(server);
    }
  }, 300_000);
});
