import { PGlite, messages } from '@electric-sql/pglite';
import {
  type IsolationLevel,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { toAdapterError } from './adapter-error.js';

const adapterError = (e: unknown): Error => toAdapterError(e, (x): x is messages.DatabaseError => x instanceof messages.DatabaseError);

/**
 * `pglite-prisma-adapter` 0.7.2 with its faults fixed:
 * - `executeScript` did not await `exec()`: a failing migration was recorded as finished and its
 *   error escaped as an unhandled rejection. Here the script runs, and fails, for real.
 * - `rollback()` did not await PGlite's ROLLBACK, so PGlite went on to send a stray COMMIT and a
 *   failing rollback was lost. Transactions here end inside PGlite's own `transaction()` callback.
 * - `connectToShadowDb()` opened an in-memory PGlite it never closed; here dispose() closes it.
 * Queries still go through the package's type mapping (it handles `"char"`, unlike adapter-pg).
 */
class FixedPGliteAdapter implements SqlDriverAdapter {
  readonly provider = 'postgres';
  readonly adapterName = 'tiltyard-pglite';

  constructor(
    private readonly db: PGlite,
    private readonly base: SqlDriverAdapter,
    private readonly onDispose?: () => Promise<void>,
  ) {}

  queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    return this.base.queryRaw(query);
  }

  executeRaw(query: SqlQuery): Promise<number> {
    return this.base.executeRaw(query);
  }

  async executeScript(script: string): Promise<void> {
    try {
      await this.db.exec(script);
    } catch (e) {
      throw adapterError(e);
    }
  }

  getConnectionInfo() {
    return { supportsRelationJoins: true };
  }

  /** PGlite is a single connection, so every transaction is serializable whatever was asked. */
  startTransaction(_isolationLevel?: IsolationLevel): Promise<Transaction> {
    return new Promise<Transaction>((resolve, reject) => {
      let settle: (commit: boolean) => void = () => {};
      const outcome = new Promise<boolean>((r) => (settle = r));
      const done = this.db.transaction(async (tx) => {
        // The package's queryable only calls `query()`, which a PGlite transaction has too.
        const q = await new PrismaPGlite(tx as unknown as PGlite).connect();
        resolve({
          provider: 'postgres',
          adapterName: this.adapterName,
          options: { usePhantomQuery: true },
          queryRaw: (query) => q.queryRaw(query),
          executeRaw: (query) => q.executeRaw(query),
          commit: async () => {
            settle(true);
            await done;
          },
          rollback: async () => {
            settle(false);
            await done;
          },
        });
        if (!(await outcome)) await tx.rollback();
      });
      // Before resolve() this reports a failed BEGIN; afterwards commit()/rollback() report it.
      done.catch((e: unknown) => reject(adapterError(e)));
    });
  }

  async dispose(): Promise<void> {
    await this.base.dispose();
    await this.onDispose?.();
  }
}

/**
 * A migration-aware Prisma driver adapter factory over one PGlite instance, for PrismaClient and
 * the WASM schema engine alike.
 *
 * @example new PrismaClient({ adapter: new PGliteAdapterFactory(await PGlite.create('./data/pglite')) })
 */
export class PGliteAdapterFactory implements SqlMigrationAwareDriverAdapterFactory {
  readonly provider = 'postgres';
  readonly adapterName = 'tiltyard-pglite';

  constructor(private readonly db: PGlite) {}

  async connect(): Promise<SqlDriverAdapter> {
    return new FixedPGliteAdapter(this.db, await new PrismaPGlite(this.db).connect());
  }

  async connectToShadowDb(): Promise<SqlDriverAdapter> {
    const shadow = await PGlite.create();
    return new FixedPGliteAdapter(shadow, await new PrismaPGlite(shadow).connect(), () =>
      shadow.close(),
    );
  }
}
