import { join } from 'node:path';
import { openStore, type EventStore } from '../../src/store/index.js';
import type { CliEnv } from '../cli/run-cli.js';
import { openPostgresStore } from '../store/support.js';

/** Where a crash test's tiltyard processes run, and how the test reads the store between them. */
export type CrashDb = {
  where: CliEnv;
  withStore: <T>(fn: (s: EventStore) => Promise<T>) => Promise<T>;
  dispose: () => Promise<void>;
};

/** An embedded database in `<tmp>/<name>`; the test opens it only while no tiltyard process does. */
export function pgliteDb(tmp: string, name: string): CrashDb {
  const dataDir = join(tmp, name);
  return {
    where: { cwd: tmp, env: { TILTYARD_DATA_DIR: dataDir, DATABASE_URL: undefined } },
    async withStore(fn) {
      const s = await openStore({ dataDir });
      try {
        return await fn(s);
      } finally {
        await s.close();
      }
    },
    dispose: async () => {},
  };
}

/** A fresh PostgreSQL database, dropped by dispose(). */
export async function postgresDb(tmp: string): Promise<CrashDb> {
  const t = await openPostgresStore();
  return { where: { cwd: tmp, env: { DATABASE_URL: t.url } }, withStore: (fn) => fn(t.store), dispose: t.dispose };
}
