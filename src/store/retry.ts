import { AsyncLocalStorage } from 'node:async_hooks';
import { z } from 'zod';
import { StoreFullError, StoreUnavailableError } from './errors.js';
import { isDiskFull } from './fs-errors.js';
import { describeChain, isTransient } from './transient.js';

/** One wait for the database: what was tried, why it failed, and how long until the next try. */
export type TransientWait = {
  /** The store operation (e.g. `append`, `tournaments.saveRatings`). */
  what: string;
  /** Failed tries so far (1 at the first wait). */
  attempt: number;
  /** Until the next try (ms). */
  delay_ms: number;
  /** Waited so far, and at most (ms). */
  waited_ms: number;
  max_wait_ms: number;
  /** The failure, its cause chain in one line. */
  error: string;
};

/**
 * How transient store errors are waited out: exponential backoff from `baseMs` (doubling, capped
 * at `capMs`) with full jitter, for at most `maxWaitMs` in all; then the last error is thrown as
 * a StoreUnavailableError that keeps it as its cause. `maxWaitMs` 0 turns retrying off.
 */
export type RetryPolicy = {
  maxWaitMs: number;
  baseMs: number;
  capMs: number;
  /** Told before every wait (a log line: "waiting for the database"). */
  onWait?: (wait: TransientWait) => void;
  /** Told once an operation that had to wait succeeded. */
  onRecovered?: (what: string, waitedMs: number) => void;
  /** Injectable for tests: the clock (ms), the pause and the jitter source in [0, 1). */
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
};

/** Five minutes: a database restart, a failover or a maintenance blip, not an outage that needs a person. */
export const DEFAULT_STORE_RETRY_MS = 300_000;

export const DEFAULT_RETRY: RetryPolicy = { maxWaitMs: DEFAULT_STORE_RETRY_MS, baseMs: 100, capMs: 5_000 };

const RetryEnv = z.object({
  /** How long transient database errors are waited out before a store call fails (ms; 0: never). */
  TILTYARD_STORE_RETRY_MS: z.coerce.number().int().min(0).max(24 * 3_600_000).default(DEFAULT_STORE_RETRY_MS),
});

/**
 * The retry budget from the environment (TILTYARD_STORE_RETRY_MS); a bad value is a RangeError
 * naming the variable.
 *
 * @example retryFromEnv({ TILTYARD_STORE_RETRY_MS: '60000' }).maxWaitMs // 60000
 */
export function retryFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): RetryPolicy {
  const raw = env['TILTYARD_STORE_RETRY_MS'];
  const parsed = RetryEnv.safeParse({ TILTYARD_STORE_RETRY_MS: raw === '' ? undefined : raw });
  if (!parsed.success) throw new RangeError(`TILTYARD_STORE_RETRY_MS must be a whole number of milliseconds from 0 to 86400000, got "${raw}"`);
  return { ...DEFAULT_RETRY, maxWaitMs: parsed.data.TILTYARD_STORE_RETRY_MS };
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `op`, waiting out transient failures (see isTransient) under the policy; permanent errors
 * are thrown at once, as they are. Safe only for operations that are idempotent or atomic: every
 * store write is one transaction, and the appends recognise a batch already stored.
 *
 * @example await withRetry('getGame', () => getGame(ctx, id), DEFAULT_RETRY)
 */
export async function withRetry<T>(what: string, op: () => Promise<T>, policy: RetryPolicy, closed: () => boolean = () => false): Promise<T> {
  const now = policy.now ?? Date.now;
  const sleep = policy.sleep ?? realSleep;
  const random = policy.random ?? Math.random;
  let started: number | null = null;
  for (let attempt = 1; ; attempt++) {
    try {
      const out = await op();
      if (started !== null) policy.onRecovered?.(what, now() - started);
      return out;
    } catch (e) {
      if (closed() || !isTransient(e)) throw e;
      started ??= now();
      const waited = now() - started;
      const left = policy.maxWaitMs - waited;
      if (left <= 0)
        throw new StoreUnavailableError(
          `${what}: the database stayed unavailable for ${Math.round(waited / 1000)} s (${attempt} tries; TILTYARD_STORE_RETRY_MS=${policy.maxWaitMs}): ${describeChain(e)}`,
          { cause: e },
        );
      const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt - 1, 30));
      // Full jitter, at least a millisecond: many games waiting on one database spread their tries out.
      const delay = Math.min(left, Math.max(1, Math.round(ceiling * random())));
      policy.onWait?.({ what, attempt, delay_ms: delay, waited_ms: waited, max_wait_ms: policy.maxWaitMs, error: describeChain(e, 300) });
      await sleep(delay);
    }
  }
}

/**
 * A store's side of transient faults: its policy, who hears about waits, and whether the store
 * was closed (a closed store's errors are never waited out). Every EventStore method runs through
 * `run`, so the server, the CLI, workers and coordinators all wait out the same faults alike.
 */
export class StoreFaults {
  closed = false;
  private readonly listeners = new Set<(wait: TransientWait) => void>();
  private readonly recoveries = new Set<(what: string, waitedMs: number) => void>();

  constructor(public policy: RetryPolicy = DEFAULT_RETRY) {}

  /** Listens to every wait (log "waiting for the database…"); returns the unsubscribe. */
  onWait(listener: (wait: TransientWait) => void, recovered?: (what: string, waitedMs: number) => void): () => void {
    this.listeners.add(listener);
    if (recovered) this.recoveries.add(recovered);
    return () => {
      this.listeners.delete(listener);
      if (recovered) this.recoveries.delete(recovered);
    };
  }

  private readonly budget = new AsyncLocalStorage<number>();

  /**
   * Runs `fn` with a smaller wait budget for every store call made inside it (an HTTP request
   * answers 503 after a few seconds rather than hang for the games' five minutes).
   */
  withBudget<T>(maxWaitMs: number, fn: () => T): T {
    return this.budget.run(maxWaitMs, fn);
  }

  /** Where the database is (passwords removed), for messages; set once it is open. */
  where = 'the database';

  async run<T>(what: string, op: () => Promise<T>): Promise<T> {
    try {
      return await this.retrying(what, op);
    } catch (e) {
      // Not worth waiting out (space is freed by a person), and named for that person.
      if (isDiskFull(e) && !(e instanceof StoreFullError))
        throw new StoreFullError(`${what}: the database at ${this.where} is out of disk space (no space left on device: ENOSPC / disk_full 53100; free space there): ${describeChain(e)}`, { cause: e });
      throw e;
    }
  }

  private retrying<T>(what: string, op: () => Promise<T>): Promise<T> {
    const maxWaitMs = Math.min(this.budget.getStore() ?? Infinity, this.policy.maxWaitMs);
    if (maxWaitMs <= 0) return op();
    return withRetry(
      what,
      op,
      {
        ...this.policy,
        maxWaitMs,
        onWait: (w) => {
          this.policy.onWait?.(w);
          for (const l of this.listeners) l(w);
        },
        onRecovered: (name, ms) => {
          this.policy.onRecovered?.(name, ms);
          for (const l of this.recoveries) l(name, ms);
        },
      },
      () => this.closed,
    );
  }
}

/**
 * Logs a store's waits without flooding: the first wait of a streak and then every power of two
 * tries (1, 2, 4, 8…), and the recovery. Returns the unsubscribe.
 *
 * @example logTransientWaits(store.onTransientWait.bind(store), (msg, f) => logger.emit('warn', msg, f))
 */
export function logTransientWaits(
  subscribe: (listener: (w: TransientWait) => void, recovered: (what: string, waitedMs: number) => void) => () => void,
  log: (message: string, fields: Record<string, unknown>) => void,
): () => void {
  return subscribe(
    (w) => {
      if ((w.attempt & (w.attempt - 1)) !== 0) return;
      log(`waiting for the database: ${w.what} failed (${w.error}); try ${w.attempt + 1} in ${(w.delay_ms / 1000).toFixed(1)} s, giving up after ${Math.round(w.max_wait_ms / 1000)} s`, { ...w });
    },
    (what, waitedMs) => log(`the database is back: ${what} went through after ${(waitedMs / 1000).toFixed(1)} s`, { what, waited_ms: waitedMs }),
  );
}
