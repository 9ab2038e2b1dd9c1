import { Redis } from 'ioredis';
import type { ScaleSettings } from './settings.js';

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
  redis.on('error', () => {});
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
