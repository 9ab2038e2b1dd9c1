import type { ArgType, SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { StoreUnavailableError } from './errors.js';

export type Row = Record<string, unknown>;

/**
 * The hot-path port: SQL with positional parameters ($1, $2, …) straight to the Prisma driver
 * adapter — the same adapter, connection pool and database the Prisma client uses, so PGlite and
 * PostgreSQL still share one code path, minus the client's per-query planning (which costs more
 * than a durable commit here). Values come back as the adapter reads them: json as text, int4 as
 * numbers, int8 as text.
 */
export type Sql = {
  rows<T = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  dispose(): Promise<void>;
};

// Parameters are strings, numbers, booleans or null and are cast in SQL; the adapters convert
// only datetimes, bytes and lists, so one untyped argType serves them all.
const UNTYPED: ArgType = { scalarType: 'unknown', arity: 'scalar' };

/** Driver-adapter error kinds that mean "the database is not there", not "the query is wrong". */
const GONE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TlsConnectionError',
  'TooManyConnections',
  'DatabaseDoesNotExist',
  'DatabaseAccessDenied',
  'AuthenticationFailed',
]);

/** Whether an error says the database went away (server down or restarting, pool timed out…). */
export function isUnavailable(e: unknown): boolean {
  const cause = (e as { cause?: { kind?: string; code?: string } })?.cause;
  if (cause?.kind && GONE.has(cause.kind)) return true;
  // SQLSTATE class 08 (connection exception), 57P01–57P03 (shutdown, cannot connect now).
  if (cause?.kind === 'postgres' && /^(08|57P0[123])/.test(cause.code ?? '')) return true;
  return /Connection terminated|timeout exceeded when trying to connect|connection error|after calling end on the pool|PGlite is closed/i.test(
    (e as Error)?.message ?? '',
  );
}

export function sqlOver(adapter: SqlDriverAdapter): Sql {
  return {
    async rows<T>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      let res;
      try {
        res = await adapter.queryRaw({
          sql: text,
          args: [...params],
          argTypes: params.map(() => UNTYPED),
        });
      } catch (e) {
        if (isUnavailable(e))
          throw new StoreUnavailableError(`the database went away: ${(e as Error).message}`, {
            cause: e,
          });
        throw e;
      }
      const names = res.columnNames;
      return res.rows.map((r) => {
        const o: Row = {};
        for (let i = 0; i < names.length; i++) o[names[i]!] = r[i];
        return o as T;
      });
    },
    dispose: () => adapter.dispose(),
  };
}
