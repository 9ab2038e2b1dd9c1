import type { Redis } from 'ioredis';

/** The Redis key of a tournament's coordinator lease. */
export const leaseKey = (prefix: string, tournamentId: string): string => `${prefix}:lease:tournament:${tournamentId}`;

/** The Redis key of a ladder's coordinator lease (`serve --ladder` on several API nodes). */
export const ladderLeaseKey = (prefix: string, ladderId: string): string => `${prefix}:lease:ladder:${ladderId}`;

/** How long a lease lasts without renewal (ms): a coordinator that dies blocks its tournament this long. */
export const LEASE_MS = 15_000;

/**
 * Renews a lease we hold, or takes it again when it is gone (a Redis that restarted empty lost
 * it; nobody else can have run the tournament without it). 1: ours; 0: someone else's.
 */
const RENEW = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
/** Deletes the lease only if it is still ours (one that expired may be another coordinator's now). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export type Lease = {
  /** Aborted once another coordinator holds the lease (ours expired unrenewed): stop coordinating. */
  readonly lost: AbortSignal;
  /** Renews now: false (and `lost` aborted) when another coordinator holds it; a Redis error is thrown. */
  renew(): Promise<boolean>;
  /** Stops renewing and gives the lease up if it is still ours. */
  release(): Promise<void>;
};

export type LeaseRefusal = { held_by: string; expires_in_ms: number };

/**
 * One coordinator per tournament across every process sharing the Redis (API nodes and
 * `tiltyard tournament`): SET NX PX, renewed every third of its life. Two coordinators would
 * schedule the same games under the same ids (the store keeps games single), but both would
 * rate, write batches and announce, so the second is refused. A lease that cannot be renewed
 * because Redis is away is kept: nobody else can take it meanwhile.
 *
 * @example const lease = await acquireLease(redis, leaseKey('tiltyard', 'trn_1'), 'cli:1234'); if ('held_by' in lease) refuse(lease.held_by)
 */
export async function acquireLease(redis: Redis, key: string, owner: string, options: { ttlMs?: number; renewEveryMs?: number } = {}): Promise<Lease | LeaseRefusal> {
  const ttl = options.ttlMs ?? LEASE_MS;
  for (let attempt = 0; (await redis.set(key, owner, 'PX', ttl, 'NX')) !== 'OK'; attempt++) {
    const [holder, pttl] = await Promise.all([redis.get(key), redis.pttl(key)]);
    // Released between the two calls: try again rather than refuse for nothing.
    if (holder !== null || attempt >= 2) return { held_by: holder ?? 'unknown', expires_in_ms: Math.max(0, pttl) };
  }
  const lost = new AbortController();
  const renew = async (): Promise<boolean> => {
    if (lost.signal.aborted) return false;
    const ours = (await redis.eval(RENEW, 1, key, owner, String(ttl))) === 1;
    if (!ours) lost.abort(new Error(`the lease ${key} is held by another coordinator now`));
    return ours;
  };
  const timer = setInterval(() => void renew().catch(() => undefined), options.renewEveryMs ?? Math.floor(ttl / 3));
  timer.unref();
  return {
    lost: lost.signal,
    renew,
    async release() {
      clearInterval(timer);
      if (!lost.signal.aborted) await redis.eval(RELEASE, 1, key, owner).catch(() => undefined);
    },
  };
}
