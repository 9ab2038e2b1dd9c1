import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLease, leaseKey, type Lease, type LeaseRefusal } from '../../src/scale/coordinator-lease.js';
import { freshPrefix } from './support.js';

/**
 * The coordinator lease on the machine's Redis: one holder per tournament, renewal keeps it, a
 * holder that finds another owner stops, a Redis that restarted empty gives it back to its holder.
 * Renewal is driven by hand (the timer is set an hour out), so nothing here depends on timing.
 */
const redis = new Redis(process.env['TILTYARD_TEST_REDIS'] ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
afterAll(() => redis.quit());

const HOUR = 3_600_000;
const held = (l: Lease | LeaseRefusal): Lease => {
  if ('held_by' in l) throw new Error(`expected the lease, refused: held by ${l.held_by}`);
  return l;
};

describe('coordinator lease', () => {
  it('one holder at a time: a second coordinator is refused and told who holds it, and gets it once released', async () => {
    const key = leaseKey(freshPrefix('lease'), 'trn_a');
    const a = held(await acquireLease(redis, key, 'node A', { ttlMs: 60_000, renewEveryMs: HOUR }));
    const refused = await acquireLease(redis, key, 'cli B', { ttlMs: 60_000, renewEveryMs: HOUR });
    expect(refused).toMatchObject({ held_by: 'node A' });
    expect((refused as LeaseRefusal).expires_in_ms).toBeGreaterThan(0);
    await a.release();
    expect(await redis.exists(key)).toBe(0);
    const b = held(await acquireLease(redis, key, 'cli B', { ttlMs: 60_000, renewEveryMs: HOUR }));
    expect(await redis.get(key)).toBe('cli B');
    await b.release();
  });

  it('renewal extends the lease; a holder whose lease another took stops and does not delete the new one', async () => {
    const key = leaseKey(freshPrefix('lease'), 'trn_b');
    const a = held(await acquireLease(redis, key, 'node A', { ttlMs: 5_000, renewEveryMs: HOUR }));
    await redis.pexpire(key, 100);
    expect(await a.renew()).toBe(true);
    expect(await redis.pttl(key)).toBeGreaterThan(1_000);
    expect(a.lost.aborted).toBe(false);
    // As if A's lease had expired unrenewed and B took it.
    await redis.set(key, 'node B', 'PX', 60_000);
    expect(await a.renew()).toBe(false);
    expect(a.lost.aborted).toBe(true);
    await a.release();
    expect(await redis.get(key)).toBe('node B');
    await redis.del(key);
  });

  it('a Redis that lost the key (restarted empty) gives the lease back to the holder that renews', async () => {
    const key = leaseKey(freshPrefix('lease'), 'trn_c');
    const a = held(await acquireLease(redis, key, 'node A', { ttlMs: 60_000, renewEveryMs: HOUR }));
    await redis.del(key);
    expect(await a.renew()).toBe(true);
    expect(await redis.get(key)).toBe('node A');
    expect(await acquireLease(redis, key, 'node B', { ttlMs: 60_000, renewEveryMs: HOUR })).toMatchObject({ held_by: 'node A' });
    await a.release();
  });
});
