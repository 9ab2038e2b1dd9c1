import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { abortableSleep } from '../lib/abortable-sleep.js';
import type { EventStore, GameRecord } from '../store/index.js';
import { pingRedis, redisConnection } from './connection.js';
import { KeyedListeners } from '../lib/keyed-listeners.js';
import { GAME_JOB, GameJobData, JOB_ATTEMPTS, JOB_BACKOFF, jobIdOf } from './game-job.js';
import { GAME_QUEUE, type ScaleSettings } from './settings.js';
import { GameJobFailedError } from './game-job-failed.js';

/** The queue as /health and /stats show it. */
export type QueueState = {
  redis: { ok: true; latency_ms: number } | { ok: false; error: string };
  queue: { waiting: number; active: number; delayed: number; failed: number; completed: number } | null;
  workers: number | null;
};

export type FollowOptions = {
  signal?: AbortSignal;
  /**
   * How often the store is read for the game's status without news (ms; default 5,000): the
   * queue's job events and the bus wake the follower, so this is only the backstop.
   */
  pollMs?: number;
  /**
   * How often the game's job is looked at in the queue (ms; default 10,000), rounded to whole
   * polls: Redis may have restarted empty. Tests shorten it so a few looks take few polls.
   */
  checkJobMs?: number;
  /**
   * Subscribes to news of the game's end on the bus (a lobby notice, or the step that ends it):
   * the store is then read when the bus says so, and only every few seconds otherwise, in case a
   * message was lost (pub/sub is at most once).
   */
  wake?: (gameId: string, wake: () => void) => () => void;
};

export type GameQueueOptions = {
  /** How often a job is run before it counts as failed, and the first backoff (tests shorten them). */
  jobs?: { attempts: number; backoffMs: number };
  /**
   * A Redis call that failed (a restart, a failover, a full Redis), and Redis answering again:
   * followers try again at their next check meanwhile. For the owner's log; told once per streak.
   */
  onProblem?: (what: string, detail: Record<string, unknown>) => void;
};

export { GameJobFailedError };

/** Redis calls from a coordinator are raced against this, so a Redis outage never freezes following the store. */
const REDIS_CALL_MS = 2_000;
/** Store reads of a followed game without news (job events or the bus wake it): a backstop for lost messages. */
const BACKSTOP_POLL_MS = 5_000;
/** About this often (ms), the coordinator checks the game's job is still queued (Redis may have restarted empty). */
const CHECK_JOB_MS = 10_000;

const settled = (g: GameRecord) => g.status === 'ended' || g.status === 'failed' || g.status === 'aborted';

function within<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<'timeout'>((done) => (timer = setTimeout(() => done('timeout'), ms)))]).finally(() => clearTimeout(timer));
}

/**
 * The coordinator's side of the queue: adds games (job id = game id, so a game is queued at most
 * once however often it is added) and follows them to their end in the store. The store is the
 * truth: a job lost with a Redis that restarted empty is simply added again, and a job that ended
 * without settling its game (a worker that lost the race to another) is added again too.
 */
export class GameQueue {
  readonly queue: Queue;
  readonly redis: Redis;
  /** The queue's job events (completed, failed), opened by the first follow: they wake followers. */
  private events: QueueEvents | null = null;
  private readonly jobNews = new KeyedListeners<void>();
  /** Followers to wake when the connection is back after a loss (Redis may have restarted empty). */
  private readonly reconnected = new Set<() => void>();
  private readonly jobs: { attempts: number; backoffMs: number };
  /** Whether the last Redis call failed (a streak is reported once, and its end). */
  private failing = false;

  constructor(
    private readonly settings: ScaleSettings,
    private readonly options: GameQueueOptions = {},
  ) {
    this.jobs = options.jobs ?? { attempts: JOB_ATTEMPTS, backoffMs: JOB_BACKOFF.delay };
    this.redis = redisConnection(settings, 'coordinator');
    this.queue = new Queue(GAME_QUEUE, { connection: this.redis, prefix: settings.prefix });
    this.queue.on('error', () => {});
    let connected = false;
    this.redis.on('ready', () => {
      if (connected) for (const wake of this.reconnected) wake();
      connected = true;
    });
  }

  /**
   * Queues a game for the workers (a no-op while the job of that attempt is queued or running).
   * A run that throws is run again JOB_ATTEMPTS times in all, with exponential backoff.
   */
  async enqueue(data: GameJobData): Promise<void> {
    const job = GameJobData.parse(data);
    await this.queue.add(GAME_JOB, job, { jobId: jobIdOf(job), attempts: this.jobs.attempts, backoff: { type: JOB_BACKOFF.type, delay: this.jobs.backoffMs }, removeOnComplete: true, removeOnFail: { count: 5000 } });
  }

  /**
   * Hears the queue's job events on a connection of their own (QueueEvents blocks on a stream):
   * a job that completed or failed wakes whoever follows its game, instead of a poll per game.
   */
  private listenToJobs(): void {
    if (this.events) return;
    const events = new QueueEvents(GAME_QUEUE, { connection: redisConnection(this.settings, 'coordinator-events'), prefix: this.settings.prefix });
    events.on('error', () => {});
    const wake = ({ jobId }: { jobId: string }) => this.jobNews.emit(jobId, undefined);
    events.on('completed', wake);
    events.on('failed', wake);
    events.on('removed', wake);
    this.events = events;
  }

  /**
   * Queues a game and waits until the store says it settled (ended, failed or aborted), or the
   * signal aborts (then null: the game stays queued or playing, and is followed again later).
   * A job the queue failed while the store does not say the game settled is a GameJobFailedError.
   *
   * @example const game = await queue.follow(store, { game_id, mode: 'scheduled', clock: 'wall', commit: 'auto' })
   */
  async follow(store: EventStore, data: GameJobData, options: FollowOptions = {}): Promise<GameRecord | null> {
    const { signal } = options;
    const id = data.game_id;
    const pollMs = options.pollMs ?? BACKSTOP_POLL_MS;
    const pollsPerCheck = Math.max(1, Math.round((options.checkJobMs ?? CHECK_JOB_MS) / pollMs));
    this.listenToJobs();
    // Subscribed for the whole follow, so news that arrives while the store is read is not lost.
    let news = false;
    let woken = new AbortController();
    const onNews = () => {
      news = true;
      woken.abort();
    };
    const unhearBus = options.wake?.(id, onNews) ?? (() => {});
    const unhearJob = this.jobNews.add(jobIdOf(data), onNews);
    this.reconnected.add(onNews);
    const unsubscribe = () => {
      unhearBus();
      unhearJob();
      this.reconnected.delete(onNews);
    };
    try {
      // Where the job was at the last look: a game whose job still waits in the queue cannot have
      // moved in the store since, so the store is read only once it may have (the job is running,
      // gone or failed) or the bus has news. A deep queue (a coordinator keeps hundreds of games
      // queued) would otherwise cost one store read per queued game per poll.
      let place: JobPlace | null = null;
      for (let polls = 0; ; polls++) {
        if (signal?.aborted) return null;
        const woke = news;
        news = false;
        let read = false;
        if (place !== 'waiting' || woke) {
          const game = await store.getGame(id);
          if (settled(game)) return game;
          read = true;
        }
        if (place === null || place === 'timeout' || woke || polls % pollsPerCheck === 0) {
          const check = await this.queuedOrSettled(store, data, read);
          if (typeof check !== 'string') return check.settled;
          place = check;
        }
        if (signal?.aborted) return null;
        if (news) continue;
        woken = new AbortController();
        await abortableSleep(pollMs, signal ? AbortSignal.any([signal, woken.signal]) : woken.signal);
      }
    } finally {
      unsubscribe();
    }
  }

  /** The queue's counts, the number of workers and whether Redis answers (for /health and /stats). */
  async state(): Promise<QueueState> {
    const redis = await pingRedis(this.redis);
    if (!redis.ok) return { redis, queue: null, workers: null };
    let counts, workers;
    try {
      [counts, workers] = await Promise.all([
        within(this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'), REDIS_CALL_MS),
        within(this.queue.getWorkersCount(), REDIS_CALL_MS),
      ]);
    } catch (e) {
      // A Redis that answers PING but refuses the queue (loading, a failover): degraded, not a 500.
      return { redis: { ok: false, error: `redis answered PING but not the queue: ${e instanceof Error ? e.message : String(e)}` }, queue: null, workers: null };
    }
    if (counts === 'timeout' || workers === 'timeout') return { redis: { ok: false, error: 'redis answered PING but not the queue in time' }, queue: null, workers: null };
    const n = (k: string) => counts[k] ?? 0;
    return { redis, queue: { waiting: n('waiting') + n('prioritized'), active: n('active'), delayed: n('delayed'), failed: n('failed'), completed: n('completed') }, workers };
  }

  /** Nest closes it with the app (API nodes). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    await this.events?.close().catch(() => {});
    await this.queue.close().catch(() => {});
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /**
   * ensureQueued, except that a job found failed, finished or gone means the game may have
   * settled since the store was last read (`read`: in this very poll, just before): the store is
   * read again first, and only a game it does not say settled is queued again, or failed.
   */
  private async queuedOrSettled(store: EventStore, data: GameJobData, read: boolean): Promise<JobPlace | { settled: GameRecord }> {
    const place = await this.ensureQueued(data, async () => {
      if (read) return false;
      const game = await store.getGame(data.game_id);
      return settled(game) ? game : false;
    }).catch(async (e: unknown) => {
      if (!(e instanceof GameJobFailedError)) throw e;
      const game = await store.getGame(data.game_id);
      if (settled(game)) return { settled: game };
      throw e;
    });
    return place;
  }

  /**
   * Makes sure the game has a live job: adds it when there is none (never added, or lost with a
   * Redis that restarted), or when its job completed without the game settling (`settledNow` says
   * whether it did, or false when the store was just read). Where the job is: `waiting` in the
   * queue (or just added), `active` on a worker, `timeout` when Redis did not answer in time or
   * failed (tried again at the next check: Redis faults never fail a game; a store that stayed
   * away and a job that failed on the workers are thrown).
   */
  private async ensureQueued(data: GameJobData, settledNow: () => Promise<GameRecord | false>): Promise<JobPlace | { settled: GameRecord }> {
    const check = async (): Promise<JobPlace | { settled: GameRecord }> => {
      const job = await this.redisCall(() => this.queue.getJob(jobIdOf(data)));
      const state = job ? await this.redisCall(() => job.getState()) : 'unknown';
      if (state === 'failed') throw new GameJobFailedError(`game ${data.game_id}: its job failed on a worker ${job?.attemptsMade ?? 0} times: ${job?.failedReason || 'no reason given'}`);
      if (state === 'active') return 'active';
      if (job && state !== 'completed' && state !== 'unknown') return 'waiting';
      const game = await settledNow();
      if (game) return { settled: game };
      if (state === 'completed') await job!.remove().catch(() => undefined);
      await this.redisCall(() => this.enqueue(data));
      return 'waiting';
    };
    try {
      const place = await check();
      if (this.failing) this.options.onProblem?.('Redis answers the queue again', {});
      this.failing = false;
      return place;
    } catch (e) {
      if (!(e instanceof RedisCallError)) throw e;
      if (!this.failing) this.options.onProblem?.('Redis does not answer the queue; following the games in the store and trying again', { error: e.message });
      this.failing = true;
      return 'timeout';
    }
  }

  /**
   * A Redis call, raced against REDIS_CALL_MS: a failure or no answer is a RedisCallError, told
   * apart from the store's errors (waited out by the store, then thrown) and a failed job's.
   */
  private async redisCall<T>(call: () => Promise<T>): Promise<T> {
    const out = await within(call(), REDIS_CALL_MS).catch((e: unknown) => {
      throw new RedisCallError(e instanceof Error ? e.message : String(e), { cause: e });
    });
    if (out === 'timeout') throw new RedisCallError(`no answer within ${REDIS_CALL_MS} ms`);
    return out;
  }
}

/** A call to Redis failed (see GameQueue.redisCall). */
class RedisCallError extends Error {
  override readonly name = 'RedisCallError';
}

/** Where a followed game's job was at the last look (see GameQueue.follow); `timeout`: Redis did not answer. */
type JobPlace = 'waiting' | 'active' | 'timeout';
