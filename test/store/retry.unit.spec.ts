import { describe, expect, it } from 'vitest';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { describeChain, isTransient, retryFromEnv, StoreFaults, StoreUnavailableError, withRetry, type RetryPolicy, type TransientWait } from '../../src/store/index.js';
import { GameNotFoundError } from '../../src/store/errors.js';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'FATAL' });
const adapter = (code: string, message: string) => new DriverAdapterError({ kind: 'postgres', code, severity: 'FATAL', message, detail: undefined, column: undefined, hint: undefined });

/** A policy on a fake clock: every sleep moves time on and is counted, nothing really waits. */
function fakePolicy(maxWaitMs: number): RetryPolicy & { slept: number[]; waits: TransientWait[] } {
  let t = 0;
  const slept: number[] = [];
  const waits: TransientWait[] = [];
  return {
    maxWaitMs,
    baseMs: 100,
    capMs: 5_000,
    now: () => t,
    sleep: (ms) => {
      slept.push(ms);
      t += ms;
      return Promise.resolve();
    },
    random: () => 0.5,
    onWait: (w) => waits.push(w),
    slept,
    waits,
  };
}

describe('isTransient', () => {
  it.each([
    ['an admin shutdown (pg_terminate_backend)', pgError('57P01', 'terminating connection due to administrator command')],
    ['a database refusing connections', adapter('55000', 'database "x" is not currently accepting connections')],
    ['a connection exception', adapter('08006', 'connection failure')],
    ['a serialization failure', adapter('40001', 'could not serialize access')],
    ['too many connections', adapter('53300', 'sorry, too many clients already')],
    ['a refused socket', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['an AggregateError of refused sockets (no message of its own)', new AggregateError([Object.assign(new Error(''), { code: 'ECONNREFUSED' })], '')],
    ['pg losing its connection', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['Prisma: cannot reach the server', Object.assign(new Error("Can't reach database server"), { code: 'P1001' })],
    ['Prisma wrapping an adapter error in meta', Object.assign(new Error('Database error'), { code: 'P2039', meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } } })],
    ['the store wrapping any of these', new StoreUnavailableError('the database went away', { cause: pgError('57P01', 'terminating connection') })],
  ])('given %s, then it is transient', (_, e) => {
    expect(isTransient(e)).toBe(true);
  });

  it.each([
    ['a unique violation', adapter('23505', 'duplicate key value')],
    ['a syntax error', adapter('42601', 'syntax error')],
    ['a missing game', new GameNotFoundError('game_x')],
    ['a closed pool (our own shutdown)', new Error('Cannot use a pool after calling end on the pool')],
    ['a closed PGlite', new Error('PGlite is closed')],
    ['a plain bug', new TypeError('x is undefined')],
    ['not an error at all', 'nope'],
  ])('given %s, then it is permanent', (_, e) => {
    expect(isTransient(e)).toBe(false);
  });

  it('given a cyclic cause chain, then it still answers', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(isTransient(a)).toBe(false);
  });
});

describe('describeChain', () => {
  it('given nested causes, then every link is kept, outermost first', () => {
    const e = new StoreUnavailableError('append: gave up', { cause: pgError('57P01', 'terminating connection due to administrator command') });
    expect(describeChain(e)).toBe('StoreUnavailableError: append: gave up ← Error: terminating connection due to administrator command (57P01)');
  });

  it('given an AggregateError with an empty message, then its errors say what happened', () => {
    const e = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], '');
    expect(describeChain(e)).toContain('connect ECONNREFUSED ::1:5432');
  });
});

describe('withRetry', () => {
  it('given transient failures that stop, then it waits them out with growing pauses and returns', async () => {
    const policy = fakePolicy(300_000);
    let calls = 0;
    const out = await withRetry('append', async () => (++calls < 4 ? Promise.reject(pgError('57P01', 'terminating connection')) : 'ok'), policy);
    expect(out).toBe('ok');
    expect(calls).toBe(4);
    // Full jitter at 0.5 of 100, 200, 400.
    expect(policy.slept).toEqual([50, 100, 200]);
    expect(policy.waits.map((w) => w.attempt)).toEqual([1, 2, 3]);
    expect(policy.waits[0]!.error).toContain('57P01');
  });

  it('given a permanent failure, then it is thrown at once, as it is', async () => {
    const policy = fakePolicy(300_000);
    const e = new GameNotFoundError('game_x');
    await expect(withRetry('getGame', () => Promise.reject(e), policy)).rejects.toBe(e);
    expect(policy.slept).toEqual([]);
  });

  it('given a database that never comes back, then it gives up after the budget with the cause kept', async () => {
    const policy = fakePolicy(10_000);
    const cause = pgError('57P01', 'terminating connection');
    const err = await withRetry('append', () => Promise.reject(cause), policy).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as Error).cause).toBe(cause);
    expect((err as Error).message).toMatch(/append: the database stayed unavailable for 10 s/);
    expect(policy.slept.reduce((a, b) => a + b, 0)).toBe(10_000);
    // Capped at 5 s a pause (2.5 s with the jitter at half).
    expect(Math.max(...policy.slept)).toBeLessThanOrEqual(5_000);
  });

  it('given a closed store, then nothing is waited out', async () => {
    const faults = new StoreFaults(fakePolicy(300_000));
    faults.closed = true;
    const e = pgError('57P01', 'terminating connection');
    await expect(faults.run('getGame', () => Promise.reject(e))).rejects.toBe(e);
  });

  it('given listeners, then each hears every wait and the recovery', async () => {
    const faults = new StoreFaults(fakePolicy(300_000));
    const heard: string[] = [];
    faults.onWait((w) => heard.push(`wait ${w.what} ${w.attempt}`), (what) => heard.push(`recovered ${what}`));
    let calls = 0;
    await faults.run('read', async () => (++calls < 3 ? Promise.reject(new Error('Connection terminated unexpectedly')) : 1));
    expect(heard).toEqual(['wait read 1', 'wait read 2', 'recovered read']);
  });
});

describe('retryFromEnv', () => {
  it('given nothing, then five minutes; given a value, then that; given junk, then a clear error', () => {
    expect(retryFromEnv({}).maxWaitMs).toBe(300_000);
    expect(retryFromEnv({ TILTYARD_STORE_RETRY_MS: '0' }).maxWaitMs).toBe(0);
    expect(() => retryFromEnv({ TILTYARD_STORE_RETRY_MS: 'soon' })).toThrow(/TILTYARD_STORE_RETRY_MS must be a whole number/);
  });
});
