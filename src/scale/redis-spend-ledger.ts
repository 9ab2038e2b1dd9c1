import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { abortableSleep } from '../lib/abortable-sleep.js';
import { capReason, type CostLedger, type Reservation, type ReserveOutcome } from '../providers/spend-ledger.js';

/** The keys of one tournament's shared ledger: its totals, its holds (id → usd), and when each hold expires. */
export const spendKeys = (prefix: string, tournamentId: string): [string, string, string] => {
  const base = `${prefix}:spend:${tournamentId}`;
  return [base, `${base}:holds`, `${base}:expiry`];
};

/**
 * Holds whose expiry passed belong to a process that vanished mid-call (killed, partitioned): the
 * call may have been billed, so each is settled at its worst case — the cap never undercounts, and
 * nobody waits for a hold that will never settle. Shared by every script below (they all sweep
 * first, on Redis's clock, so workers' clocks never matter).
 */
const SWEEP = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local settled = tonumber(redis.call('HGET', KEYS[1], 'settled') or '0')
local dead = redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)
for _, id in ipairs(dead) do
  local usd = redis.call('HGET', KEYS[2], id)
  if usd then settled = settled + tonumber(usd) end
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
end
local function keep(ms)
  for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ms) end
end
local function num(x) return string.format('%.17g', x) end
`;

/**
 * ARGV: usd, cap, hold id, hold ttl ms, keys' ttl ms, what.
 * → {1, settled, worst} granted | {2, settled, worst} wait for holds | {0, settled, worst, reason} refused.
 * A refusal that the cap's settled part cannot fit stops the ledger for every process (the reason is stored).
 */
const RESERVE = `${SWEEP}
local usd = tonumber(ARGV[1])
local cap = tonumber(ARGV[2])
local worst = math.max(tonumber(redis.call('HGET', KEYS[1], 'worst') or '0'), usd)
redis.call('HSET', KEYS[1], 'settled', num(settled), 'worst', num(worst))
keep(tonumber(ARGV[5]))
local stopped = redis.call('HGET', KEYS[1], 'stopped')
if stopped then return {0, num(settled), num(worst), stopped} end
if settled + usd > cap then
  local reason = 'cost cap: ' .. ARGV[6] .. ' may cost up to $' .. string.format('%.6f', usd) .. ', and $' .. string.format('%.6f', settled) .. ' of the $' .. ARGV[2] .. ' cap is spent'
  redis.call('HSET', KEYS[1], 'stopped', reason)
  return {0, num(settled), num(worst), reason}
end
local held = 0
for _, v in ipairs(redis.call('HVALS', KEYS[2])) do held = held + tonumber(v) end
if settled + held + usd > cap then return {2, num(settled), num(worst)} end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[4]), ARGV[3])
return {1, num(settled), num(worst)}`;

/** ARGV: hold id, usd, keys' ttl ms → 1 settled, 0 unknown (settled already, or expired and charged its worst case). */
const SETTLE = `${SWEEP}
local gone = redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[3], ARGV[1])
if gone == 1 then settled = settled + tonumber(ARGV[2]) end
redis.call('HSET', KEYS[1], 'settled', num(settled))
keep(tonumber(ARGV[3]))
return gone`;

/** ARGV: hold ttl ms, hold ids… → how many were still held (their expiry pushed out). */
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = 0
for i = 2, #ARGV do n = n + redis.call('ZADD', KEYS[3], 'XX', 'CH', now + tonumber(ARGV[1]), ARGV[i]) end
return n`;

/**
 * ARGV: the store's recorded cost, reset (1: a new run clears a stop), keys' ttl ms → settled.
 * Settled is the larger of what Redis holds (it includes dead holds charged at their worst case) and
 * what the store recorded (all there is after a Redis that restarted empty).
 */
const OPEN = `${SWEEP}
settled = math.max(settled, tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'settled', num(settled))
if ARGV[2] == '1' then redis.call('HDEL', KEYS[1], 'stopped', 'worst') end
keep(tonumber(ARGV[3]))
return num(settled)`;

/** ARGV: none → {settled, held, worst, stopped or false}. */
const READ = `${SWEEP}
redis.call('HSET', KEYS[1], 'settled', num(settled))
local held = 0
for _, v in ipairs(redis.call('HVALS', KEYS[2])) do held = held + tonumber(v) end
return {num(settled), num(held), redis.call('HGET', KEYS[1], 'worst') or '0', redis.call('HGET', KEYS[1], 'stopped') or false}`;

export type RedisSpendLedgerOptions = {
  /** A hold lives this long without renewal (default 30 s); renewed every third of it while its call is in flight. */
  holdTtlMs?: number;
  /** How often holds in flight are renewed (default a third of holdTtlMs). */
  renewEveryMs?: number;
  /** How often a call that must wait for other holds looks again (default 100 ms; a settle in this process wakes it at once). */
  pollMs?: number;
  /** How often the shared stop is looked for without a call (default 1 s; 0: only on calls). */
  watchMs?: number;
  /** The keys outlive the last write by this much (default 7 days): a stopped tournament resumed later finds them. */
  keepMs?: number;
};

export type LedgerTotals = { spent: number; reserved: number; worst: number; stopped: string | null };

/**
 * A tournament's cost cap shared by every process that plays its games (API nodes, `tiltyard
 * tournament`, `tiltyard worker`s on any host): the same rule as SpendLedger — spent + held + a
 * call's worst case never passes the cap — checked and written atomically by one Lua script per
 * reservation, so N processes cannot each spend up to the cap. A process that dies mid-call
 * stops renewing its holds; they expire after `holdTtlMs` and are charged at their worst case.
 *
 * @example
 * const ledger = await RedisSpendLedger.open(redis, 'tiltyard', 'trn_1', { capUsd: 0.10, spentUsd: await store.tournaments.cost('trn_1') });
 * const hold = await ledger.reserve(0.004, 'llm:openai:gpt-4o');
 * if (hold.ok) ledger.settle(hold.reservation, result.costUsd);
 */
export class RedisSpendLedger implements CostLedger {
  private readonly keys: [string, string, string];
  private readonly stop = new AbortController();
  private readonly owner = randomBytes(6).toString('hex');
  private next = 0;
  private worst = 0;
  private readonly live = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();
  private wake: Array<() => void> = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly holdTtlMs: number;
  private readonly pollMs: number;
  private readonly keepMs: number;

  private constructor(
    private readonly redis: Redis,
    prefix: string,
    readonly tournamentId: string,
    readonly capUsd: number,
    options: RedisSpendLedgerOptions,
  ) {
    this.keys = spendKeys(prefix, tournamentId);
    this.holdTtlMs = options.holdTtlMs ?? 30_000;
    this.pollMs = options.pollMs ?? 100;
    this.keepMs = options.keepMs ?? 7 * 24 * 3_600_000;
    const renew = setInterval(() => void this.renew().catch(() => undefined), options.renewEveryMs ?? Math.max(1, Math.floor(this.holdTtlMs / 3)));
    renew.unref();
    this.timers.push(renew);
    const watchMs = options.watchMs ?? 1_000;
    if (watchMs > 0) {
      const watch = setInterval(() => void this.totals().catch(() => undefined), watchMs);
      watch.unref();
      this.timers.push(watch);
    }
  }

  /**
   * Joins (or starts) the tournament's shared ledger. `spentUsd` is the store's recorded cost; `reset`
   * (the coordinator starting a run) clears a stop left by an earlier run, so a higher cap goes on.
   */
  static async open(redis: Redis, prefix: string, tournamentId: string, options: RedisSpendLedgerOptions & { capUsd: number; spentUsd?: number; reset?: boolean }): Promise<RedisSpendLedger> {
    const ledger = new RedisSpendLedger(redis, prefix, tournamentId, options.capUsd, options);
    await redis.eval(OPEN, 3, ...ledger.keys, String(options.spentUsd ?? 0), options.reset ? '1' : '0', String(ledger.keepMs));
    await ledger.totals();
    return ledger;
  }

  get stopped(): AbortSignal {
    return this.stop.signal;
  }

  get worstCallUsd(): number {
    return this.worst;
  }

  /** What every process has settled and holds now (and the shared stop, which this reads into `stopped`). */
  async totals(): Promise<LedgerTotals> {
    const [spent, held, worst, stopped] = (await this.redis.eval(READ, 3, ...this.keys)) as [string, string, string, string | null];
    this.seen(Number(worst), stopped);
    return { spent: Number(spent), reserved: Number(held), worst: Number(worst), stopped: stopped || null };
  }

  async reserve(usd: number, what: string): Promise<ReserveOutcome> {
    this.worst = Math.max(this.worst, usd);
    const id = `${this.owner}:${this.next++}`;
    for (;;) {
      const [code, settled, worst, reason] = (await this.redis.eval(RESERVE, 3, ...this.keys, String(usd), String(this.capUsd), id, String(this.holdTtlMs), String(this.keepMs), what)) as [number, string, string, string?];
      this.seen(Number(worst), reason ?? null);
      if (code === 0) return { ok: false, reason: reason ?? capReason(what, usd, Number(settled), this.capUsd) };
      if (code === 1) {
        this.live.add(id);
        return { ok: true, reservation: { id, usd } };
      }
      // Holds elsewhere settle without telling us: look again soon (a settle here wakes at once).
      await new Promise<void>((resolve) => {
        this.wake.push(resolve);
        void abortableSleep(this.pollMs).then(resolve);
      });
    }
  }

  settle(reservation: Reservation, usd: number): void {
    if (!this.live.delete(reservation.id)) return;
    const done = this.redis
      .eval(SETTLE, 3, ...this.keys, reservation.id, String(usd), String(this.keepMs))
      // Unsettled, the hold expires and is charged its worst case: never under the cap's count.
      .catch(() => undefined)
      .finally(() => {
        this.pending.delete(done);
        const wake = this.wake;
        this.wake = [];
        for (const w of wake) w();
      });
    this.pending.add(done);
  }

  /** Stops renewing and watching, after the settles already sent have reached Redis. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await Promise.all([...this.pending]);
  }

  /** Pushes out the expiry of this process's holds (their calls are still in flight); on a timer, or by hand. */
  async sync(): Promise<void> {
    await this.totals();
  }

  async renew(): Promise<void> {
    if (this.live.size === 0) return;
    await this.redis.eval(RENEW, 3, ...this.keys, String(this.holdTtlMs), ...this.live);
  }

  private seen(worst: number, stopped: string | null): void {
    this.worst = Math.max(this.worst, worst);
    if (stopped && !this.stop.signal.aborted) this.stop.abort(new Error(stopped));
  }
}
