import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { DatabaseUrl, describeConnectError } from './database-url.js';
import { lockDir } from './dir-lock.js';
import { StoreUnavailableError } from './errors.js';
import { createPool, PgAdapterFactory } from './pg-adapter.js';
import { PGliteAdapterFactory } from './pglite-adapter.js';
import { readTemplate } from './pglite-template.js';

/** A database the store can talk to: its adapter factory, a name for messages, and how to let go. */
export type Backend = {
  kind: 'pglite' | 'postgres';
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** The factory for the hot-path adapter (same database; on PostgreSQL its statements are prepared). */
  hot: SqlMigrationAwareDriverAdapterFactory;
  /** Where it is, passwords removed. */
  where: string;
  /** Runs fn holding a lock that serialises migrations across processes (PostgreSQL). */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

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
const MIGRATION_LOCK = 7_341_977_001;

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
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        return await fn();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The backend over a PGlite the caller opened (a clone in tests, a custom file system…); closed with it. */
export function pgliteBackend(db: PGlite, where: string, release = () => {}): Backend {
  const factory = new PGliteAdapterFactory(db);
  return {
    kind: 'pglite',
    factory,
    hot: factory,
    where,
    exclusive: (fn) => fn(),
    async close() {
      try {
        await db.close();
      } finally {
        release();
      }
    },
  };
}

/**
 * Embedded PostgreSQL (PGlite) in `<dataDir>/pglite`, locked against a second process; or an
 * in-memory one when dataDir is `memory://…`.
 */
export async function connectPglite(dataDir: string, migrationsDir?: string): Promise<Backend> {
  const memory = dataDir.startsWith('memory://');
  const dir = memory ? dataDir : join(resolve(dataDir), 'pglite');
  let release = () => {};
  if (!memory) {
    try {
      mkdirSync(resolve(dataDir), { recursive: true });
    } catch (e) {
      throw new StoreUnavailableError(`cannot create the data folder ${resolve(dataDir)}`, {
        cause: e,
      });
    }
    release = lockDir(`${dir}.lock`);
  }
  let db: PGlite;
  try {
    // A new database starts from the migrated template when one is cached (no initdb, no
    // migrations to apply); an existing one opens as it is.
    const fresh = memory || !existsSync(join(dir, 'PG_VERSION'));
    const template = fresh ? await readTemplate(migrationsDir) : null;
    db = await PGlite.create(dir, template ? { loadDataDir: template } : {});
  } catch (e) {
    release();
    throw new StoreUnavailableError(
      `cannot open the embedded database at ${dir}: ${(e as Error).message}`,
      { cause: e },
    );
  }
  return pgliteBackend(db, dir, release);
}
