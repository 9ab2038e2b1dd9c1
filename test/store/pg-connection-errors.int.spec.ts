import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool } from '../../src/store/pg-adapter.js';
import { ADMIN_URL, openPostgresStore, postgresAvailable } from './support.js';

/**
 * A PostgreSQL restart or `pg_terminate_backend` ends every connection of the store's pool, also
 * those checked out at that moment (a transaction between statements, the migration lock, the turn
 * between pg-pool handing a client over and the awaiting code taking it). pg-pool listens to a
 * client's 'error' only while it is idle, and an 'error' nobody listens to ends a Node process:
 * workers died of `57P01` and `Connection terminated unexpectedly` when PostgreSQL restarted.
 */
const pgUp = await postgresAvailable();

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c().catch(() => undefined);
});

describe.skipIf(!pgUp)("the store's pool when the server ends its connections", () => {
  it('given a connection checked out between statements, when the server terminates it, then the process lives, the pool drops it on release and the next query gets a fresh one', async () => {
    const db = await openPostgresStore();
    cleanup.push(() => db.dispose());
    const pool = createPool(db.url, { max: 2 });
    cleanup.push(() => pool.end());
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    cleanup.push(() => admin.end());

    // What would have ended a worker: an 'error' emitted with nobody listening.
    const uncaught: string[] = [];
    let crashed = () => {};
    const onUncaught = (e: unknown) => {
      uncaught.push(String(e));
      crashed();
    };
    process.on('uncaughtException', onUncaught);
    cleanup.push(() => Promise.resolve(process.off('uncaughtException', onUncaught)));

    const client = await pool.connect();
    let released = false;
    const release = (destroy = false) => {
      if (!released) client.release(destroy);
      released = true;
    };
    // pool.end() waits for every client it lent out (a failed run leaves this one out).
    cleanup.push(() => Promise.resolve(release(true)));
    const { pid } = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!;
    // Not events.once: it listens to 'error' itself, which would hide the very fault under test.
    // A throwing 'error' emit keeps 'end' from ever being emitted: the crash ends the wait too.
    const gone = new Promise<void>((resolve) => {
      client.once('end', () => resolve());
      crashed = resolve;
    });
    const { rows } = await admin.query<{ ok: boolean }>('SELECT pg_terminate_backend($1) AS ok', [pid]);
    expect(rows[0]!.ok).toBe(true);
    await gone;
    expect(uncaught).toEqual([]);

    await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|Connection terminated/);
    release();
    const again = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(again.rows[0]!.pid).not.toBe(pid);
  });
});
