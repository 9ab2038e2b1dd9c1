import type { Redis } from 'ioredis';
import type { CostLedger } from '../providers/spend-ledger.js';
import type { EventStore } from '../store/index.js';
import { RedisSpendLedger } from './redis-spend-ledger.js';

/**
 * A worker's handles on the shared cost caps of the tournaments it plays games of: one
 * RedisSpendLedger per tournament and cap, opened on first use. The cap is read from the
 * tournament's stored options each time (a resume may have raised it), never from the job.
 */
export class WorkerLedgers {
  private readonly open = new Map<string, { cap: number; ledger: Promise<RedisSpendLedger> }>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly store: EventStore,
  ) {}

  /** The tournament's shared ledger, or null when it has no cap. */
  async of(tournamentId: string): Promise<CostLedger | null> {
    const t = await this.store.tournaments.get(tournamentId);
    const cap = t.options?.['max_cost_usd'];
    if (typeof cap !== 'number') return null;
    const known = this.open.get(tournamentId);
    // A stopped ledger of an earlier run, or one under an older cap, is replaced by a fresh handle.
    if (known && known.cap === cap && !(await known.ledger).stopped.aborted) return known.ledger;
    if (known) void known.ledger.then((l) => l.close());
    const ledger = RedisSpendLedger.open(this.redis, this.prefix, tournamentId, { capUsd: cap, spentUsd: await this.store.tournaments.cost(tournamentId) });
    this.open.set(tournamentId, { cap, ledger });
    ledger.catch(() => this.open.delete(tournamentId));
    return ledger;
  }

  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((o) => o.ledger.then((l) => l.close()).catch(() => undefined)));
  }
}
