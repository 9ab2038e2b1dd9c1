import { Redis } from 'ioredis';
import { errorChain } from '../store/transient.js';
import { RedisUnavailableError } from './redis-unavailable.js';
import { redactRedisUrl, type ScaleSettings } from './settings.js';

/** The last error each connection emitted: ioredis rejects connect() with only "Connection is closed.". */
const lastErrors = new WeakMap<Redis, unknown>();

/**
 * A Redis connection for BullMQ or the bus. `maxRetriesPerRequest: null` (BullMQ requires it for
 * workers, and we want it everywhere): a command issued while Redis restarts waits for the
 * reconnect instead of failing, so a Redis restart delays games and never fails one. ioredis
 * reconnects forever with a capped backoff. `lazyConnect` keeps construction synchronous and quiet.
 */
export function redisConnection(settings: ScaleSettings, name: string): Redis {
  const redis = new Redis(settings.redisUrl, {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: `${settings.prefix}:${name}`,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    lazyConnect: true,
  });
  // An 'error' without a listener would crash the process; reconnection is ioredis's job.
  redis.on('error', (e) => lastErrors.set(redis, e));
  return redis;
}

/** Whether Redis answers a PING within `timeoutMs` (health checks must not hang on a dead Redis). */
export async function pingRedis(redis: Redis, timeoutMs = 1_000): Promise<{ ok: true; latency_ms: number } | { ok: false; error: string }> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    if (redis.status !== 'ready') return { ok: false, error: `redis connection is ${redis.status}` };
    await Promise.race([redis.ping(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)))]);
    return { ok: true, latency_ms: Math.round((performance.now() - t0) * 10) / 10 };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why Redis could not be used, as describeConnectError says it of PostgreSQL: nothing listens, the
 * host is unknown, no answer, or the login was refused; else the driver's own words.
 *
 * @example describeRedisError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'redis://h:6379') // 'nothing accepts connections at h:6379 (ECONNREFUSED; is Redis running?)'
 */
export function describeRedisError(cause: unknown, url: string): string {
  const u = new URL(url);
  const at = `${u.hostname}:${u.port || '6379'}`;
  const chain = errorChain(cause);
  const code = chain.map((f) => (typeof f.code === 'string' ? f.code : '')).find((c) => c !== '') ?? '';
  const message = chain.map((f) => (typeof f.message === 'string' ? f.message : '')).find((m) => m !== '') ?? String(cause);
  if (code === 'ECONNREFUSED') return `nothing accepts connections at ${at} (ECONNREFUSED; is Redis running?)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot resolve the host ${u.hostname} (${code})`;
  if (code === 'ETIMEDOUT') return `no answer from ${at} (ETIMEDOUT)`;
  if (/^(WRONGPASS|NOAUTH|NOPERM)/.test(message)) return `Redis at ${at} refused the login: ${message}`;
  return `${message}${code && !message.includes(code) ? ` (${code})` : ''}`;
}

/** Resolves when a connecting connection is ready; rejects when it closes first, as connect() does. */
function firstOutcome(redis: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const ready = () => settle(() => resolve());
    const closed = () => settle(() => reject(new Error('Connection is closed.')));
    const settle = (then: () => void) => {
      redis.off('ready', ready);
      redis.off('close', closed);
      then();
    };
    redis.once('ready', ready);
    redis.once('close', closed);
  });
}

/**
 * Connects a lazy connection (redisConnection) at a process's start. A Redis that cannot be
 * reached then is a RedisUnavailableError naming it (password hidden) and the cause, and the
 * connection stops trying (a start that fails must not leave it reconnecting forever). Once
 * started, a Redis that goes away is waited for instead (see redisConnection).
 */
export async function connectRedis(redis: Redis, settings: ScaleSettings): Promise<void> {
  try {
    // BullMQ may have begun connecting a connection handed to it (a Queue does): then its outcome.
    if (redis.status === 'wait') await redis.connect();
    else if (redis.status !== 'ready') await firstOutcome(redis);
  } catch (e) {
    const cause = lastErrors.get(redis) ?? e;
    redis.disconnect();
    throw new RedisUnavailableError(`cannot reach Redis at ${redactRedisUrl(settings.redisUrl)} (REDIS_URL): ${describeRedisError(cause, settings.redisUrl)}`, { cause });
  }
}
