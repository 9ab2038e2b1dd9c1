import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { guardWal, walSegments, WAL_PARAMS } from '../../src/store/pglite-wal.js';
import { until } from '../server/spawn-server.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-wal-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/**
 * PGlite has no checkpointer: without the guard its pg_wal only ever grows while the database is
 * open (a server running for days). Segments are made cheaply with pg_switch_wal().
 */
describe('the embedded database’s WAL', () => {
  it('given pg_wal past four segments, then the guard checkpoints it back down to what max_wal_size keeps', async () => {
    const db = await PGlite.create(join(tmp, 'db'), { startParams: [...PGlite.defaultStartParams, ...WAL_PARAMS] });
    try {
      await db.exec('CREATE TABLE t (x int)');
      for (let i = 0; i < 8; i++) await db.exec(`INSERT INTO t VALUES (${i}); SELECT pg_switch_wal();`);
      const grown = await walSegments(join(tmp, 'db'));
      expect(grown).toBeGreaterThan(4);
      const stop = guardWal(db, join(tmp, 'db'), 20);
      try {
        // A hang detector, not a speed check: the guard's first look is 20 ms away.
        const after = await until('pg_wal to shrink', async () => {
          const n = await walSegments(join(tmp, 'db'));
          return n <= 2 ? n : undefined;
        }, 60_000, 20);
        expect(after).toBeLessThanOrEqual(2);
      } finally {
        stop();
      }
      expect((await db.query<{ n: number }>('SELECT count(*)::int AS n FROM t')).rows[0]!.n).toBe(8);
    } finally {
      await db.close();
    }
  });

  it('given a closed database, then the guard does nothing and stops quietly', async () => {
    const db = await PGlite.create(join(tmp, 'closed'), { startParams: [...PGlite.defaultStartParams, ...WAL_PARAMS] });
    await db.close();
    const stop = guardWal(db, join(tmp, 'closed'), 5);
    await new Promise((r) => setTimeout(r, 30));
    stop();
  });
});
