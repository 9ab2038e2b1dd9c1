import { PrismaPg } from '@prisma/adapter-pg';
import { ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import type {
  SqlDriverAdapter,
  SqlMigrationAwareDriverAdapterFactory,
  SqlQuery,
  SqlResultSet,
  Transaction,
  IsolationLevel,
} from '@prisma/driver-adapter-utils';
import { createHash } from 'node:crypto';
import pg from 'pg';
import { toAdapterError } from './adapter-error.js';

const CHAR_OID = 18;
const TEXT_OID = 25;
/** Appended to the name of a `"char"` column on its way through adapter-pg, removed after. */
const CHAR_MARK = '\u0000tiltyard:char';

type QueryResultLike = { fields?: { name: string; dataTypeID: number }[] };
type Callback = (err: unknown, res: unknown) => void;

/**
 * adapter-pg 7.10.0 has no mapping for Postgres's internal `"char"` (OID 18), so the schema
 * engine's live introspection (schemaPush, a diff from a live database, devDiagnostic) fails
 * with "Column type 'char' could not be deserialized"; read as text instead, the engine panics.
 * So each pooled client hands adapter-pg such a column as text with a marked name, and
 * charColumns() restores the name and reports the type the engine wants (Character).
 */
function charAsText(res: unknown): unknown {
  for (const r of Array.isArray(res) ? (res as QueryResultLike[]) : [res as QueryResultLike]) {
    for (const f of r?.fields ?? []) {
      if (f.dataTypeID !== CHAR_OID) continue;
      f.dataTypeID = TEXT_OID;
      f.name += CHAR_MARK;
    }
  }
  return res;
}

function charColumns(res: SqlResultSet): SqlResultSet {
  res.columnNames.forEach((name, i) => {
    if (!name.endsWith(CHAR_MARK)) return;
    res.columnNames[i] = name.slice(0, -CHAR_MARK.length);
    res.columnTypes[i] = ColumnTypeEnum.Character;
  });
  return res;
}

/** See charAsText. */
function patchClient(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (
    ...args: unknown[]
  ) => {
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      const cb = last as Callback;
      return query(...args.slice(0, -1), (err: unknown, res: unknown) =>
        cb(err, err ? res : charAsText(res)),
      );
    }
    const out = query(...args);
    return out instanceof Promise ? out.then(charAsText) : out;
  };
}

const adapterError = (e: unknown): Error => toAdapterError(e, (x): x is pg.DatabaseError => x instanceof pg.DatabaseError);

/**
 * A pg pool for the store: bounded connect time so an unreachable server fails fast. `idleTimeoutMs`
 * 0 keeps idle connections open (a session holding a lock must not be closed under it).
 */
export function createPool(
  connectionString: string,
  options: { connectTimeoutMs?: number; max?: number; idleTimeoutMs?: number } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    max: options.max ?? 10,
    ...(options.idleTimeoutMs === undefined ? {} : { idleTimeoutMillis: options.idleTimeoutMs }),
  });
  pool.on('connect', (client) => {
    patchClient(client);
    // pg-pool listens to a client's 'error' only while it is idle: checked out (a transaction
    // between statements, the migration lock, the turn between a callback and an await), a
    // server that terminates the connection (57P01, a restart) or drops it ("Connection terminated
    // unexpectedly") emits 'error' on a client nobody listens to, and Node ends the process. The
    // client is unusable after it either way (not queryable: the pool discards it on release), and
    // whatever query was running or comes next fails with a transient error the store waits out.
    client.on('error', () => {});
  });
  // An idle client's error (server restart) must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return pool;
}

/** The connection string with its database swapped (adapter-pg's shadow database ignored this). */
export function withDatabase(connectionString: string, database: string): string {
  const url = new URL(connectionString);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/**
 * adapter-pg, with fixes layered on:
 * - `executeScript` split scripts on every `;` (breaking on one inside a string literal) and ran
 *   the pieces on whatever pooled connection came next; here a script is one simple-protocol
 *   query, so a migration applies atomically or not at all.
 * - `connectToShadowDb` reconnected to the main database when configured with a connection
 *   string; here the shadow database really is the one it created, and is dropped on dispose.
 * - `"char"` columns: see patchClient.
 * The engine's free() does not close the adapter, and pg's idle clients hold the process for
 * ~10 s: the pool belongs to the store, which ends it on close().
 */
class FixedPgAdapter implements SqlDriverAdapter {
  readonly provider = 'postgres';
  readonly adapterName = 'tiltyard-pg';

  constructor(
    private readonly pool: pg.Pool,
    private readonly base: SqlDriverAdapter,
    private readonly onDispose?: () => Promise<void>,
  ) {}

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return charColumns(await this.base.queryRaw(query));
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.base.executeRaw(query);
  }

  async executeScript(script: string): Promise<void> {
    try {
      await this.pool.query(script);
    } catch (e) {
      throw adapterError(e);
    }
  }

  async startTransaction(isolationLevel?: IsolationLevel): Promise<Transaction> {
    const tx = await this.base.startTransaction(isolationLevel);
    const queryRaw = tx.queryRaw.bind(tx);
    tx.queryRaw = async (query) => charColumns(await queryRaw(query));
    return tx;
  }

  getConnectionInfo() {
    return this.base.getConnectionInfo?.() ?? { supportsRelationJoins: true };
  }

  async dispose(): Promise<void> {
    await this.base.dispose();
    await this.onDispose?.();
  }
}

const names = new Map<string, string>();

/** A stable name per SQL text, so pg parses and plans each hot statement once per connection. */
function statementName(query: SqlQuery): string {
  let name = names.get(query.sql);
  if (!name) {
    name = `ty_${createHash('sha1').update(query.sql).digest('hex').slice(0, 20)}`;
    names.set(query.sql, name);
  }
  return name;
}

/**
 * A migration-aware Prisma driver adapter factory over a pg pool the caller owns.
 *
 * @example new PrismaClient({ adapter: new PgAdapterFactory(createPool(url), url) })
 */
export class PgAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = 'tiltyard-pg';
  private readonly inner: PrismaPg;

  /** With `prepared`, every statement is a named prepared statement (for a fixed set of SQL texts only). */
  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    options: { prepared?: boolean } = {},
  ) {
    this.inner = new PrismaPg(
      pool,
      options.prepared ? { statementNameGenerator: statementName } : undefined,
    );
  }

  async connect(): Promise<SqlDriverAdapter> {
    return new FixedPgAdapter(this.pool, await this.inner.connect());
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const database = `prisma_migrate_shadow_db_${globalThis.crypto.randomUUID().replaceAll('-', '')}`;
    await this.pool.query(`CREATE DATABASE "${database}"`);
    const shadow = createPool(withDatabase(this.connectionString, database), { max: 2 });
    const base = await new PrismaPg(shadow).connect();
    return new FixedPgAdapter(shadow, base, async () => {
      await shadow.end();
      await this.pool.query(`DROP DATABASE IF EXISTS "${database}"`);
    });
  }
}
