import { z } from 'zod';
import { formatIssues } from '../protocol/index.js';

/** The one BullMQ queue every coordinator adds games to and every `tiltyard worker` consumes. */
export const GAME_QUEUE = 'tiltyard-games';

const RedisUrl = z.string().refine((raw) => {
  try {
    const u = new URL(raw);
    return (u.protocol === 'redis:' || u.protocol === 'rediss:') && u.hostname !== '';
  } catch {
    return false;
  }
}, 'expected redis://[user:password@]host:6379[/db] (or rediss:// for TLS)');

const ScaleEnv = z.object({
  REDIS_URL: z.string().optional(),
  /** Namespaces the queue's keys and the bus channel, so several deployments (or tests) share one Redis. */
  TILTYARD_QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - only (at most 64)')
    .default('tiltyard'),
});

/** Where the scale-out pieces meet: the Redis server and the key prefix of this deployment. */
export type ScaleSettings = { redisUrl: string; prefix: string };

export class ScaleConfigError extends Error {
  override readonly name = 'ScaleConfigError';
}

/**
 * The scale-out settings from the environment, or null when REDIS_URL is unset (everything then
 * runs in-process, as on a single machine: nothing here is ever touched). A bad value throws a
 * ScaleConfigError naming the variable.
 *
 * @example scaleSettings({ REDIS_URL: 'redis://127.0.0.1:6379' }) // { redisUrl: 'redis://127.0.0.1:6379', prefix: 'tiltyard' }
 */
export function scaleSettings(env: Readonly<Record<string, string | undefined>> = process.env): ScaleSettings | null {
  const parsed = ScaleEnv.safeParse(env);
  if (!parsed.success) throw new ScaleConfigError(`invalid scale-out configuration: ${formatIssues(parsed.error.issues)}`);
  const url = parsed.data.REDIS_URL?.trim();
  if (!url) return null;
  const checked = RedisUrl.safeParse(url);
  if (!checked.success) throw new ScaleConfigError(`REDIS_URL: ${checked.error.issues[0]!.message}, got "${redactRedisUrl(url)}"`);
  return { redisUrl: url, prefix: parsed.data.TILTYARD_QUEUE_PREFIX };
}

/** A Redis URL fit for logs: the password replaced by ***. */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}
