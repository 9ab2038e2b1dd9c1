import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpendLedger, type CostLedger } from '../../src/providers/spend-ledger.js';
import { RedisSpendLedger, spendKeys } from '../../src/scale/redis-spend-ledger.js';
import { freePort, freshPrefix, killed, startRedis, until } from './support.js';

/**
 * The shared cost cap on a private redis-server: two ledgers on two connections (as two worker
 * processes would hold them) race reservations for one tournament; the cap holds across them.
 */
let server: ChildProcess;
let url: string;
const connections: Redis[] = [];
const connect = () => {
  const r = new Redis(url, { maxRetriesPerRequest: 1 });
  connections.push(r);
  return r;
};
beforeAll(async () => {
  const port = await freePort();
  server = await startRedis(port);
  url = `redis://127.0.0.1:${port}`;
});
afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit().catch(() => undefined)));
  await killed(server);
});

const HOUR = 3_600_000;
const WORST = 0.001;
/** What call `i` really costs: 20–100 % of its worst case, deterministic. */
const realCost = (i: number) => WORST * (0.2 + ((i * 37) % 81) / 100);

/** Calls as fast as a seat could: reserve, "send" (a tick), settle; until refused. What it settled. */
async function spendUntilRefused(ledger: CostLedger, tag: string, lanes: number): Promise<number> {
  let settled = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      for (;;) {
        const hold = await ledger.reserve(WORST, `llm:${tag}`);
        if (!hold.ok) return;
        const usd = realCost(n++);
        await new Promise((r) => setImmediate(r));
        settled += usd;
        ledger.settle(hold.reservation, usd);
      }
    }),
  );
  return settled;
}

describe('RedisSpendLedger: one cap across processes', () => {
  it('given two processes racing reservations on one tournament, then what both settle stays within cap + one worst call, and both stop', async () => {
    const prefix = freshPrefix('spend');
    const cap = 0.02;
    const open = () => RedisSpendLedger.open(connect(), prefix, 'trn_race', { capUsd: cap, pollMs: 5, watchMs: 0, reset: true });
    const [a, b] = await Promise.all([open(), open()]);
    const [spentA, spentB] = await Promise.all([spendUntilRefused(a, 'a', 4), spendUntilRefused(b, 'b', 4)]);
    await Promise.all([a.close(), b.close()]);
    const totals = await a.totals();
    expect(spentA).toBeGreaterThan(0);
    expect(spentB).toBeGreaterThan(0);
    expect(spentA + spentB).toBeLessThanOrEqual(cap + WORST + 1e-12);
    expect(totals.spent).toBeCloseTo(spentA + spentB, 12);
    expect(totals.reserved).toBe(0);
    expect(a.stopped.aborted && b.stopped.aborted).toBe(true);
    expect(String(a.stopped.reason)).toMatch(/^Error: cost cap: llm:[ab] may cost up to \$0\.001000/);
    expect(a.worstCallUsd).toBe(WORST);
  });

  it('given the in-process ledger in each of two processes instead, then together they spend past the cap (why the shared one exists)', async () => {
    const cap = 0.02;
    const [spentA, spentB] = await Promise.all([spendUntilRefused(new SpendLedger(cap), 'a', 4), spendUntilRefused(new SpendLedger(cap), 'b', 4)]);
    expect(spentA + spentB).toBeGreaterThan(cap + WORST);
  });

  it('given a process that vanished holding a reservation, then its hold expires, is charged its worst case, and a waiting call goes on', async () => {
    const prefix = freshPrefix('spend');
    const dead = await RedisSpendLedger.open(connect(), prefix, 'trn_dead', { capUsd: 0.0015, holdTtlMs: 300, watchMs: 0, reset: true });
    const held = await dead.reserve(WORST, 'llm:dead');
    expect(held.ok).toBe(true);
    // It stops renewing (as a killed process would) without settling.
    await dead.close();
    const alive = await RedisSpendLedger.open(connect(), prefix, 'trn_dead', { capUsd: 0.0015, holdTtlMs: 300, pollMs: 20, watchMs: 0 });
    // $0.001 held + $0.0004 fits; $0.001 more must wait for the hold, then cannot fit beside its worst case.
    const small = await alive.reserve(0.0004, 'llm:alive');
    expect(small.ok).toBe(true);
    if (small.ok) alive.settle(small.reservation, 0.0001);
    const next = await alive.reserve(WORST, 'llm:alive');
    expect(next).toMatchObject({ ok: false, reason: expect.stringMatching(/\$0\.001100 of the \$0\.0015 cap is spent/) });
    await alive.close();
    expect((await alive.totals()).reserved).toBe(0);
  });

  it('given a hold whose call is still in flight, then its renewal keeps it past the expiry it had', async () => {
    const prefix = freshPrefix('spend');
    const redis = connect();
    const ledger = await RedisSpendLedger.open(redis, prefix, 'trn_renew', { capUsd: 1, holdTtlMs: 60_000, renewEveryMs: HOUR, watchMs: 0, reset: true });
    const hold = await ledger.reserve(0.5, 'llm:slow');
    if (!hold.ok) throw new Error(hold.reason);
    // Its expiry is due (as if a ttl had passed): the owner renews it before anyone sweeps.
    const expiry = spendKeys(prefix, 'trn_renew')[2];
    await redis.zadd(expiry, 0, hold.reservation.id);
    await ledger.renew();
    expect(Number(await redis.zscore(expiry, hold.reservation.id))).toBeGreaterThan(Date.now());
    expect((await ledger.totals()).reserved).toBe(0.5);
    // Due again and not renewed (its owner gone): the next sweep charges its worst case.
    await redis.zadd(expiry, 0, hold.reservation.id);
    expect(await ledger.totals()).toMatchObject({ spent: 0.5, reserved: 0 });
    // A late settle of the charged hold changes nothing.
    ledger.settle(hold.reservation, 0.2);
    await ledger.close();
    expect(await ledger.totals()).toMatchObject({ spent: 0.5, reserved: 0 });
  });

  it('given a refusal in one process, then the other sees the stop without a call of its own (watch), and a new run (reset) clears it', async () => {
    const prefix = freshPrefix('spend');
    const a = await RedisSpendLedger.open(connect(), prefix, 'trn_stop', { capUsd: 0.001, watchMs: 0, reset: true });
    const b = await RedisSpendLedger.open(connect(), prefix, 'trn_stop', { capUsd: 0.001, watchMs: 20 });
    expect((await a.reserve(0.002, 'llm:big')).ok).toBe(false);
    await until('the other process to see the stop', () => Promise.resolve(b.stopped.aborted ? true : undefined), 5_000, 20);
    await Promise.all([a.close(), b.close()]);
    const resumed = await RedisSpendLedger.open(connect(), prefix, 'trn_stop', { capUsd: 0.01, watchMs: 0, reset: true, spentUsd: 0 });
    expect(resumed.stopped.aborted).toBe(false);
    expect((await resumed.reserve(0.002, 'llm:big')).ok).toBe(true);
    await resumed.close();
  });
});
