import { PrismaClient } from './generated/client.js';
import type { PGlite } from '@electric-sql/pglite';
import { connectPglite, connectPostgres, pgliteBackend, type Backend } from './connect.js';
import { MigrationError, StoreUnavailableError } from './errors.js';
import { EventStore } from './event-store.js';
import { retryFromEnv, StoreFaults, type RetryPolicy } from './retry.js';
import { sqlOver, type Sql } from './sql.js';
import { bootMark } from '../lib/boot-marks.js';
import { applyMigrations, localMigrations, MIGRATIONS_DIR, upToDate } from './migrations.js';

/** $TILTYARD_COMPACT as a switch (default on); anything but on/off and its spellings is an error, not a guess. */
function compactSwitch(): boolean {
  const v = (process.env['TILTYARD_COMPACT'] ?? '').trim().toLowerCase();
  if (v === '' || ['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  throw new RangeError(`TILTYARD_COMPACT must be on or off, got "${process.env['TILTYARD_COMPACT']}"`);
}

export type OpenStoreOptions = {
  /** PostgreSQL connection string; defaults to $DATABASE_URL. Without one, the embedded database. */
  databaseUrl?: string;
  /** Where the embedded database lives (in `<dataDir>/pglite`); defaults to $TILTYARD_DATA_DIR, then ./data. `memory://` keeps it in memory. */
  dataDir?: string;
  /** Snapshot whenever an append crosses a multiple of this many events (default 200). */
  snapshotEvery?: number;
  /**
   * Store whole ended games (tournaments of built-ins) straight into cold storage (cold-game.ts).
   * Default: on, unless $TILTYARD_COMPACT is off (the same switch as the server's background compaction).
   */
  compactWholeGames?: boolean;
  /** Apply pending migrations on open (default true). */
  migrate?: boolean;
  /** How long to wait for a PostgreSQL connection before StoreUnavailableError (default 5 s). */
  connectTimeoutMs?: number;
  /** The migrations to apply (default prisma/migrations). */
  migrationsDir?: string;
  /** An open PGlite to use instead of dataDir (e.g. a clone of a migrated one); the store closes it. */
  pglite?: PGlite;
  /**
   * Serve the embedded database to other processes on a unix socket in the data folder, so the
   * CLI works beside this one (the server does this). Either way, an embedded database another
   * process serves is reached through its socket.
   */
  shareEmbedded?: boolean;
  /**
   * How transient database errors (a restart, a dropped connection…) are waited out before a
   * call fails; default: TILTYARD_STORE_RETRY_MS (5 minutes) with backoff from 100 ms to 5 s.
   */
  retry?: Partial<RetryPolicy>;
};

export const DEFAULT_SNAPSHOT_EVERY = 200;

async function migrate(backend: Backend, sql: Sql, dir: string): Promise<void> {
  const migrations = await localMigrations(dir);
  // Through the driver adapter, not the Prisma client: an up-to-date open then never loads the
  // client's query compiler (a second of a start); the first Prisma query does, later.
  const query = (text: string) => sql.rows(text);
  // Most opens find everything applied: checking that first spares compiling the schema engine.
  if (await upToDate(query, migrations)) return;
  await backend.exclusive(async (session) => {
    // Processes started together all found migrations missing; all but the first waited for the
    // lock while it applied them, and find them applied now.
    if (await upToDate(session.rows, migrations)) return;
    await applyMigrations(session.factory, dir);
  });
}

/**
 * Opens the event store: the embedded PGlite database by default (no server needed), PostgreSQL
 * when a URL is given or DATABASE_URL is set — one code path over Prisma driver adapters either
 * way. Pending migrations are applied first. Close it when done.
 * Fails with StoreUnavailableError (cause kept) when the database cannot be reached or opened,
 * and MigrationError when the migrations cannot be applied.
 *
 * @example
 * const store = await openStore();                                  // ./data/pglite
 * const pg = await openStore({ databaseUrl: 'postgresql://localhost/tiltyard' });
 */
export async function openStore(options: OpenStoreOptions = {}): Promise<EventStore> {
  const url = options.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  const snapshotEvery = options.snapshotEvery ?? DEFAULT_SNAPSHOT_EVERY;
  if (!Number.isInteger(snapshotEvery) || snapshotEvery < 1)
    throw new RangeError(`snapshotEvery must be a positive integer, got ${snapshotEvery}`);
  const faults = new StoreFaults({ ...retryFromEnv(), ...options.retry });
  const backend = options.pglite
    ? pgliteBackend(options.pglite, 'the given PGlite')
    : url
      ? await connectPostgres(url, options.connectTimeoutMs)
      : await connectPglite(
          options.dataDir ?? process.env.TILTYARD_DATA_DIR ?? './data',
          options.migrationsDir,
          { share: options.shareEmbedded === true },
        );
  faults.where = backend.where;
  bootMark('database open');
  const prisma = new PrismaClient({ adapter: backend.factory });
  let sql: Sql | null = null;
  try {
    sql = sqlOver(await backend.hot.connect());
    if (options.migrate !== false)
      await migrate(backend, sql, options.migrationsDir ?? MIGRATIONS_DIR);
    bootMark('migrations checked');
    // Served only once migrated: a client never sees a half-migrated database.
    await backend.share?.();
  } catch (e) {
    await sql?.dispose().catch(() => {});
    await prisma.$disconnect().catch(() => {});
    await backend.close().catch(() => {});
    if (e instanceof MigrationError || e instanceof StoreUnavailableError) throw e;
    throw new StoreUnavailableError(
      `cannot prepare the database at ${backend.where}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  const hot = sql;
  return new EventStore(
    { prisma, sql: hot, backend: backend.kind, snapshotEvery, compactWholeGames: options.compactWholeGames ?? compactSwitch(), heads: new Map(), faults },
    backend.factory,
    async () => {
      await hot.dispose();
      await prisma.$disconnect();
      await backend.close();
    },
  );
}
