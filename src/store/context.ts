import type { PrismaClient } from './generated/client.js';
import type { StoreFaults } from './retry.js';
import type { Sql } from './sql.js';

/** The head of a game's log: the last seq and its hash. */
export type Head = { seq: number; hash: string };

/** What every store operation runs against. */
export type StoreContext = {
  /** The generated client: cold paths (games, listings), typed. */
  readonly prisma: PrismaClient;
  /** The driver adapter itself: hot paths (append, reads, replay), one statement each. */
  readonly sql: Sql;
  readonly backend: 'pglite' | 'postgres';
  /** A snapshot is written whenever an append crosses a multiple of this many events. */
  readonly snapshotEvery: number;
  /** Whole ended games go straight to cold storage (OpenStoreOptions.compactWholeGames). */
  readonly compactWholeGames: boolean;
  /**
   * The heads this store last wrote or read, so a writer appending step after step need not
   * read its prev hash back. Only a hint: append's guard checks last_seq and last_hash in SQL.
   */
  readonly heads: Map<string, Head>;
  /** Transient faults are waited out through this (see StoreFaults). */
  readonly faults: StoreFaults;
};
