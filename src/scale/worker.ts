import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { JsonLogger } from '../lib/json-logger.js';
import { describeChain, type EventStore } from '../store/index.js';
import { redisConnection } from './connection.js';
import { GAME_QUEUE, type ScaleSettings } from './settings.js';
import { GameJobData, type GameJobResult } from './game-job.js';
import { playJob } from './play-job.js';
import { RedisGameBus } from './redis-bus.js';
import { WorkerLedgers } from './worker-ledgers.js';

export type WorkerOptions = {
  settings: ScaleSettings;
  store: EventStore;
  logger: JsonLogger;
  /** Games this process plays at once (BullMQ's concurrency). */
  concurrency: number;
  /**
   * How long a job's lock lasts without renewal (ms): a worker that dies (SIGKILL, lost machine)
   * holds its games this long before another worker takes them over. Renewed at half of it.
   */
  lockMs: number;
};

export type GameWorker = {
  /** Games being played now. */
  active(): number;
  /** Stops taking games, stops the running ones after their current step (back to the queue), closes. */
  close(): Promise<void>;
};

/**
 * How many times a game may be taken over from a worker that died or stalled before BullMQ gives
 * up on it. Takeovers are safe (the store decides who writes each step), so this is only a guard
 * against a game that kills every worker that plays it.
 */
const MAX_STALLED = 25;

/** How often workers look for stalled jobs (see the Worker's stalledInterval below). */
export const STALLED_CHECK_MS = 1_000;

/**
 * `tiltyard worker`: consumes queue `tiltyard-games` and plays each game against the shared
 * PostgreSQL, resuming it from its last committed step. Delivery is at least once: a job that runs
 * twice, here or on two workers, cannot write an event twice (the store's (game_id, seq) check lets
 * one writer win; the other stops and looks again later).
 */
export async function startGameWorker(options: WorkerOptions): Promise<GameWorker> {
  const { settings, store, logger } = options;
  const bus = new RedisGameBus(settings, { listen: false, onProblem: (msg, f) => logger.emit('warn', msg, f) });
  await bus.start();
  // The cost caps of capped tournaments, shared with their coordinators and the other workers.
  const spendRedis = redisConnection(settings, 'spend');
  const ledgers = new WorkerLedgers(spendRedis, settings.prefix, store);
  const running = new Set<AbortController>();
  const shutdown = new AbortController();

  const processJob = async (job: Job, token?: string): Promise<GameJobResult> => {
    const parsed = GameJobData.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`job ${job.id}: not a game job: ${parsed.error.issues[0]?.message ?? ''}`);
    const data = parsed.data;
    const controller = new AbortController();
    const onShutdown = () => controller.abort();
    shutdown.signal.addEventListener('abort', onShutdown, { once: true });
    if (shutdown.signal.aborted) controller.abort();
    running.add(controller);
    try {
      const out = await playJob({ store, bus, logger, ledgerOf: (id) => ledgers.of(id) }, data, controller.signal).catch((e: unknown) => {
        // BullMQ keeps only the message as the job's failedReason: make it the whole cause chain.
        if (e instanceof Error && !(e instanceof UnrecoverableError)) throw new Error(describeChain(e), { cause: e });
        throw e;
      });
      if ('settled' in out) return { game_id: data.game_id, status: out.settled.status, last_seq: out.settled.last_seq };
      if ('capped' in out) {
        logger.emit('info', 'game stopped by its tournament cost cap', { game_id: data.game_id, why: out.why });
        return { game_id: data.game_id, status: out.capped.status, last_seq: out.capped.last_seq };
      }
      logger.emit('info', out.again === 'now' ? 'game back to the queue' : 'game put off', { game_id: data.game_id, why: out.why, ...(out.again === 'now' ? {} : { delay_ms: out.again }) });
      // A move Redis refused (a restart lost the job, a failover made it read-only) must not fail
      // the game: the job is left to BullMQ's stalled check, which puts it back once its lock
      // expires, or is gone and the coordinator queues the game again from the store.
      await (out.again === 'now' ? job.moveToWait(token) : job.moveToDelayed(Date.now() + out.again, token)).catch((e: unknown) =>
        logger.emit('warn', 'could not put the game back in the queue (Redis); it comes back once its lock expires or the coordinator queues it again', { game_id: data.game_id, error: e instanceof Error ? e.message : String(e) }),
      );
      throw out.again === 'now' ? new WaitingError() : new DelayedError();
    } finally {
      running.delete(controller);
      shutdown.signal.removeEventListener('abort', onShutdown);
    }
  };

  const worker = new Worker(GAME_QUEUE, processJob, {
    connection: redisConnection(settings, 'worker'),
    prefix: settings.prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockMs,
    // Every second each worker looks for jobs whose lock expired: a dead worker's game is taken
    // over within its lock time and about a second (it waited up to twice the lock time before).
    stalledInterval: STALLED_CHECK_MS,
    maxStalledCount: MAX_STALLED,
    removeOnComplete: { count: 1000 },
    removeOnFail: { count: 5000 },
  });
  worker.on('error', (e) => logger.emit('warn', 'worker: redis or queue error (it reconnects)', { error: e.message }));
  worker.on('failed', (job, e) => logger.emit('error', 'game job failed', { game_id: job?.id, error: e.message }));
  worker.on('stalled', (jobId) => logger.emit('warn', 'a game stalled on a worker that stopped renewing its lock; it goes back to the queue', { game_id: jobId }));
  await worker.waitUntilReady();

  let closing: Promise<void> | null = null;
  return {
    active: () => running.size,
    close() {
      closing ??= (async () => {
        shutdown.abort();
        await worker.close();
        await ledgers.close();
        await Promise.all([bus.close(), spendRedis.quit().catch(() => undefined)]);
      })();
      return closing;
    },
  };
}
