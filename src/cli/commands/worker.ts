import { parseArgs } from 'node:util';
import { redactUrl } from '../../store/connect.js';
import { openStore } from '../../store/index.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { reportFailure } from '../store-session.js';
import { wholeFlag } from '../tournament-flags.js';
import type { Command } from './command.js';

/** Default job lock (ms): how long a dead worker's games wait before another worker takes them. */
const DEFAULT_LOCK_MS = 30_000;

/** Resolves on the first SIGTERM or SIGINT. */
const stopSignal = (): Promise<NodeJS.Signals> =>
  new Promise((done) => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => done(signal));
  });

export const workerCommand: Command = {
  name: 'worker',
  summary: 'play queued games for a scaled-out deployment (needs REDIS_URL and DATABASE_URL)',
  usage: `Usage: tiltyard worker [--concurrency N]

Plays games from the BullMQ queue "tiltyard-games" on Redis (REDIS_URL) against the shared
PostgreSQL (DATABASE_URL): the games servers and \`tiltyard tournament\` enqueue when REDIS_URL is
set. Each game resumes from its last committed step, so a worker killed mid-game loses nothing:
another worker takes its games over once their lock expires. Committed steps go out on the Redis
bus to every API node's spectators. SIGTERM or Ctrl-C: running games stop after their current
step and go back to the queue; the worker exits 0. See docs/scale-out.md.

  --concurrency N    games played at once (default 1; LLM and subprocess seats gain most)

Environment: REDIS_URL (required), DATABASE_URL (required: a PostgreSQL every worker and API
node shares), TILTYARD_QUEUE_PREFIX (key prefix, default "tiltyard"), TILTYARD_WORKER_LOCK_MS
(job lock, default ${DEFAULT_LOCK_MS}), TILTYARD_LOG (debug|info|warn|error|silent).
Logs are JSON lines on stdout.
`,
  async run(argv: readonly string[], io: CliIo) {
    const { values } = parseFlags(() => parseArgs({ args: [...argv], options: { concurrency: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const concurrency = wholeFlag('concurrency', values.concurrency, 1) ?? 1;
    const lockMs = wholeFlag('TILTYARD_WORKER_LOCK_MS', process.env['TILTYARD_WORKER_LOCK_MS'], 1000) ?? DEFAULT_LOCK_MS;
    const { scaleSettings, ScaleConfigError, redactRedisUrl } = await import('../../scale/settings.js');
    const { SandboxConfigError, sandboxBanner, sandboxSettings } = await import('../../agents/sandbox/index.js');
    let settings;
    let sandbox;
    try {
      settings = scaleSettings();
      sandbox = sandboxSettings();
    } catch (e) {
      if (e instanceof ScaleConfigError || e instanceof SandboxConfigError) throw new UsageError(e.message);
      throw e;
    }
    if (!settings) throw new UsageError('REDIS_URL is not set: a worker takes its games from a BullMQ queue on Redis, e.g. REDIS_URL=redis://127.0.0.1:6379 (see docs/scale-out.md)');
    const databaseUrl = process.env['DATABASE_URL'];
    if (!databaseUrl)
      throw new UsageError('DATABASE_URL is not set: workers need a PostgreSQL that every worker and API node shares; the embedded PGlite database lives in one process\'s folder, so nothing else could see the games a worker plays (see docs/scale-out.md)');
    const { JsonLogger } = await import('../../lib/json-logger.js');
    const { startGameWorker } = await import('../../scale/worker.js');
    const level = (process.env['TILTYARD_LOG'] ?? 'info') as 'info';
    const logger = new JsonLogger(['debug', 'info', 'warn', 'error', 'silent'].includes(level) ? level : 'info');
    const stopped = stopSignal();
    let store;
    try {
      store = await openStore({ databaseUrl });
    } catch (e) {
      return reportFailure(io, e);
    }
    const { logTransientWaits } = await import('../../store/index.js');
    logTransientWaits(store.onTransientWait.bind(store), (message, fields) => logger.emit('warn', message, fields));
    try {
      const worker = await startGameWorker({ settings, store, logger, concurrency, lockMs });
      io.err(`Tiltyard worker: ${concurrency} game${concurrency > 1 ? 's' : ''} at once from queue tiltyard-games (prefix ${settings.prefix}) on ${redactRedisUrl(settings.redisUrl)}; store PostgreSQL ${redactUrl(databaseUrl)}; ${sandboxBanner(sandbox)}\n`);
      logger.emit('info', 'worker ready', { concurrency, prefix: settings.prefix, lock_ms: lockMs });
      const signal = await stopped;
      logger.emit('info', `${signal}: stopping; running games stop after their current step and go back to the queue`, { active: worker.active() });
      await worker.close();
      logger.emit('info', 'worker stopped');
      return EXIT.ok;
    } catch (e) {
      return reportFailure(io, e);
    } finally {
      await store.close().catch(() => {});
    }
  },
};
