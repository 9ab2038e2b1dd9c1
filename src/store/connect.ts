import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { DatabaseUrl, describeConnectError } from './database-url.js';
import { DirLockedError, liveHolder, lockDir, type LockHolder } from './dir-lock.js';
import type { SqlRows } from './migrations.js';
import { StoreUnavailableError } from './errors.js';
import { describeFsError, describeFsErrorAt, makeDirs } from './fs-errors.js';
import { createPool, PgAdapterFactory } from './pg-adapter.js';
import { PGliteAdapterFactory } from './pglite-adapter.js';
import { shareDatabase, socketDirFor, socketUrl, type SharedDatabase } from './pglite-share.js';
import { clearHalfMade, markMaking } from './pglite-fresh.js';
import { copyTemplate, readTemplate, takeSpare } from './pglite-template.js';
import { guardWal, WAL_PARAMS } from './pglite-wal.js';

/** A database the store can talk to: its adapter factory, a name for messages, and how to let go. */
export type Backend = {
  kind: 'pglite' | 'postgres';
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** The factory for the hot-path adapter (same database; on PostgreSQL its statements are prepared). */
  hot: SqlMigrationAwareDriverAdapterFactory;
  /** Where it is, passwords removed. */
  where: string;
  /**
   * Runs fn holding the lock that serialises migrations across processes (PostgreSQL), in the one
   * session that holds it: fn migrates through `session`.
   */
  exclusive<T>(fn: (session: MigrationSession) => Promise<T>): Promise<T>;
  /** Serves this embedded database to other processes on its socket (connectPglite with `share`). */
  share?: () => Promise<void>;
  close(): Promise<void>;
};

/** What a migration runs over: an adapter factory and a plain query, both on one session. */
export type MigrationSession = { factory: SqlMigrationAwareDriverAdapterFactory; rows: SqlRows };

/** `postgresql://user:***@host:5432/db`: safe to print. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(unparseable database URL)';
  }
}

/** Advisory lock id serialising Tiltyard migrations across processes (not Prisma's own id). */
export const MIGRATION_LOCK = 7_341_977_001;

/**
 * PostgreSQL through adapter-pg. Connects once up front so that a wrong or unreachable URL fails
 * here, within connectTimeoutMs, as one StoreUnavailableError — not on the first query.
 */
export async function connectPostgres(url: string, connectTimeoutMs = 5_000): Promise<Backend> {
  const where = redactUrl(url);
  const checked = DatabaseUrl.safeParse(url);
  if (!checked.success)
    throw new StoreUnavailableError(
      `DATABASE_URL ${checked.error.issues[0]!.message} (got ${where === '(unparseable database URL)' ? JSON.stringify(url.slice(0, 80)) : where})`,
    );
  let pool;
  try {
    pool = createPool(url, { connectTimeoutMs });
  } catch (e) {
    throw new StoreUnavailableError(`invalid DATABASE_URL ${where}: ${(e as Error).message}`, {
      cause: e,
    });
  }
  try {
    await pool.query('SELECT 1');
  } catch (e) {
    await pool.end().catch(() => {});
    throw new StoreUnavailableError(`${describeConnectError(e, new URL(url))} [${where}]`, {
      cause: e,
    });
  }
  return {
    kind: 'postgres',
    factory: new PgAdapterFactory(pool, url),
    hot: new PgAdapterFactory(pool, url, { prepared: true }),
    where,
    async exclusive(fn) {
      // A session of its own, not the pool's: the schema engine takes Prisma's advisory lock too,
      // and through a pool its lock and unlock could land on two sessions, leaving a pooled one
      // holding it; the next process to migrate then timed out on it. Ending the session ends
      // every lock taken in it. Kept open while idle: the lock is the session's.
      const session = createPool(url, { connectTimeoutMs, max: 1, idleTimeoutMs: 0 });
      try {
        await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        return await fn({
          factory: new PgAdapterFactory(session, url),
          rows: async (sql) => (await session.query<Record<string, unknown>>(sql)).rows,
        });
      } finally {
        // Released here, not only by ending the session: the server drops a closed session's
        // locks only when its backend has exited, which a loaded machine delays past our return.
        await session.query('SELECT pg_advisory_unlock_all()').catch(() => {});
        await session.end().catch(() => {});
      }
    },
    close: () => pool.end(),
  };
}

/** The backend over a PGlite the caller opened (a clone in tests, a custom file system…); closed with it. */
export function pgliteBackend(
  db: PGlite,
  where: string,
  release = () => {},
  beforeClose: () => Promise<void> | undefined = () => undefined,
): Backend {
  const factory = new PGliteAdapterFactory(db);
  return {
    kind: 'pglite',
    factory,
    hot: factory,
    where,
    exclusive: (fn) => fn({ factory, rows: async (sql) => (await db.query<Record<string, unknown>>(sql)).rows }),
    async close() {
      try {
        await beforeClose();
        await db.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * PGlite's start parameters: its defaults, with 16 MB of shared buffers instead of Postgres's
 * 128 MB (starting Postgres clears its shared memory, and in WASM that clearing of 128 MB was a
 * third of an open's CPU time; a store this size never fills even 16 MB), and a bounded WAL
 * (pglite-wal.ts).
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB', ...WAL_PARAMS];

/** How long a client waits for a starting server (lock taken, socket not yet up) before giving up. */
const SHARED_WAIT_MS = 60_000;

/**
 * Embedded PostgreSQL (PGlite) in `<dataDir>/pglite`, locked against a second process; or an
 * in-memory one when dataDir is `memory://…`. With `share`, the lock records a socket folder and
 * the backend's share() serves the database there (the server does). When another live process
 * holds the database and serves it, this connects to it through that socket instead: the CLI beside
 * a running server uses the server's database.
 */
export async function connectPglite(
  dataDir: string,
  migrationsDir?: string,
  options: { share?: boolean; sharedWaitMs?: number } = {},
): Promise<Backend> {
  const memory = dataDir.startsWith('memory://');
  const dir = memory ? dataDir : join(resolve(dataDir), 'pglite');
  let release = () => {};
  let socket: string | null = null;
  if (!memory) {
    try {
      makeDirs(resolve(dataDir));
    } catch (e) {
      throw new StoreUnavailableError(`cannot create the data folder ${resolve(dataDir)}: ${describeFsError(e)}`, {
        cause: e,
      });
    }
    socket = options.share ? socketDirFor(dir) : null;
    try {
      release = lockDir(`${dir}.lock`, socket);
    } catch (e) {
      if (e instanceof DirLockedError && e.holder.socket && e.holder.pid !== process.pid)
        return connectShared(dir, e.holder, options.sharedWaitMs ?? SHARED_WAIT_MS, () =>
          connectPglite(dataDir, migrationsDir, options),
        );
      throw e;
    }
  }
  let db: PGlite;
  let fresh = true;
  let making: ReturnType<typeof markMaking> | null = null;
  try {
    if (!memory) clearHalfMade(dir);
    // A new database starts from the migrated template when one is cached (no initdb, no
    // migrations to apply): on disk its spare copy (renamed, no copying) or a copy of it unpacked,
    // else its dump; an existing one opens as it is.
    fresh = memory || !existsSync(join(dir, 'PG_VERSION'));
    if (fresh && !memory) making = markMaking(dir);
    const copied =
      fresh &&
      !memory &&
      ((await takeSpare(dir, migrationsDir)) || (await copyTemplate(dir, migrationsDir)));
    const template = fresh && !copied ? await readTemplate(migrationsDir) : null;
    db = await PGlite.create(dir, {
      startParams: START_PARAMS,
      ...(template ? { loadDataDir: template } : {}),
    });
    making?.done();
  } catch (e) {
    // Half a database must not pass for one at the next open: what this open began, it removes.
    making?.undo();
    release();
    throw new StoreUnavailableError(
      `cannot ${fresh ? 'create' : 'open'} the embedded database at ${dir}: ${describeFsErrorAt(e, dir)}`,
      { cause: e },
    );
  }
  let shared: SharedDatabase | null = null;
  const stopWal = memory ? () => {} : guardWal(db, dir);
  const backend = pgliteBackend(db, dir, release, () => {
    stopWal();
    return shared?.close();
  });
  if (socket) {
    const at = socket;
    backend.share = async () => {
      shared ??= await shareDatabase(db, at);
    };
  }
  return backend;
}

/**
 * The embedded database another process holds and serves on its socket, through the pg driver.
 * A server that has just locked the folder may not serve yet (it opens the database first), so
 * this waits for the socket while the holder lives; a holder that dies meanwhile left the folder
 * free, and `reopen` opens it here.
 */
async function connectShared(
  dir: string,
  holder: LockHolder,
  waitMs: number,
  reopen: () => Promise<Backend>,
): Promise<Backend> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const pg = await connectPostgres(socketUrl(holder.socket!), 5_000);
      // Named prepared statements would meet other clients' in the one shared session: none here.
      return { ...pg, kind: 'pglite', hot: pg.factory, where: `${dir} (served by process ${holder.pid})` };
    } catch (e) {
      if (!liveHolder(`${dir}.lock`)) return reopen();
      if (Date.now() > deadline)
        throw new StoreUnavailableError(
          `the embedded database at ${dir} is held by process ${holder.pid}, which does not answer on its socket ${holder.socket}; stop it or set DATABASE_URL to share a PostgreSQL server`,
          { cause: e },
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
