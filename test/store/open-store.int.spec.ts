import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATION_LOCK } from '../../src/store/connect.js';
import { MigrationError, openStore, StoreUnavailableError, type EventStore } from '../../src/store/index.js';
import { PrismaClient } from '../../src/store/generated/client.js';
import { applyMigrations, localMigrations, MIGRATIONS_DIR } from '../../src/store/migrations.js';
import { PGliteAdapterFactory } from '../../src/store/pglite-adapter.js';
import { readTemplate } from '../../src/store/pglite-template.js';
import { ADMIN_URL, freshDatabase, persist, playGame, postgresAvailable } from './support.js';

const pgUp = await postgresAvailable();
const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-store-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('openStore on PostgreSQL, failing fast', () => {
  it('given an unreachable DATABASE_URL, then StoreUnavailableError at once, password redacted, cause kept', async () => {
    const before = process.env['DATABASE_URL'];
    process.env['DATABASE_URL'] = 'postgresql://tiltyard:s3cret@127.0.0.1:1/nowhere';
    try {
      const err = await openStore().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as Error).message).toContain('127.0.0.1:1');
      expect((err as Error).message).not.toContain('s3cret');
      expect((err as Error).cause).toBeDefined();
    } finally {
      if (before === undefined) delete process.env['DATABASE_URL'];
      else process.env['DATABASE_URL'] = before;
    }
  });

  it('given a server that accepts but never answers, then StoreUnavailableError after connectTimeoutMs', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const { port } = silent.address() as AddressInfo;
    // The server never answers: without the connect timeout this would hang until the test's own.
    try {
      await expect(
        openStore({ databaseUrl: `postgresql://x@127.0.0.1:${port}/db`, connectTimeoutMs: 300 }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });

  it.runIf(pgUp)('given a server without that database, then StoreUnavailableError', async () => {
    const url = new URL(ADMIN_URL);
    url.pathname = '/tiltyard_no_such_database';
    await expect(openStore({ databaseUrl: url.toString() })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  });
});

describe('openStore on PostgreSQL, started together on an empty database', () => {
  it.runIf(pgUp)('given three openers waiting at once, then one migrates, the others wait for it and find the migrations applied, and no advisory lock stays held', async () => {
    const { url, name, admin, drop } = await freshDatabase();
    const advisory = async (granted: boolean) =>
      Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory' AND l.granted = $1 AND a.datname = $2`, [granted, name])).rows[0]!.n);
    // The migration lock held here first, so all three have found the database empty and wait on
    // it (as processes started together do) before any of them migrates: no race left to luck.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const stores: EventStore[] = [];
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const opening = [0, 1, 2].map(() => openStore({ databaseUrl: url }).then((s) => (stores.push(s), s)));
      const settled = Promise.allSettled(opening);
      for (let waited = 0; (await advisory(false)) < 3; waited += 50) {
        if (waited > 120_000) throw new Error('the openers never waited on the migration lock');
        await new Promise((r) => setTimeout(r, 50));
      }
      await holder.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      const outcomes = await settled;
      expect(outcomes.map((o) => (o.status === 'rejected' ? String(o.reason) : 'open'))).toEqual(['open', 'open', 'open']);
      // Held by none of the open stores' sessions (a lock left in a pooled session blocks the next migrator).
      expect(await advisory(true)).toBe(0);
      // Each migration applied once.
      const rows = await stores[0]!.prisma.$queryRawUnsafe<{ migration_name: string; finished: boolean }[]>(`SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name`);
      expect(rows).toEqual((await localMigrations()).map((m) => ({ migration_name: m.name, finished: true })));
    } finally {
      await Promise.all(stores.map((s) => s.close()));
      await holder.end();
      await drop();
    }
  });
});

describe('openStore on the embedded database', () => {
  it('given TILTYARD_DATA_DIR, then the log persists across a close and reopen, and a second opener is refused', async () => {
    const dir = join(tmp, 'data');
    const before = process.env['TILTYARD_DATA_DIR'];
    process.env['TILTYARD_DATA_DIR'] = dir;
    const game = playGame(3, { tag: 'disk', rules: { round_cap: 1 } });
    try {
      const store = await openStore();
      await persist(store, game);
      await expect(openStore()).rejects.toBeInstanceOf(StoreUnavailableError);
      await store.close();
      const again = await openStore();
      expect(JSON.stringify(await again.read(game.gameId))).toBe(JSON.stringify(game.events));
      expect(await again.verifyChain(game.gameId)).toBeNull();
      await again.close();
    } finally {
      if (before === undefined) delete process.env['TILTYARD_DATA_DIR'];
      else process.env['TILTYARD_DATA_DIR'] = before;
    }
  });
});

describe('PGlite adapter fixes', () => {
  it('given a failing migration, then MigrationError, it is not recorded as finished, and no rejection escapes', async () => {
    const dir = join(tmp, 'migrations');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, '99990101000000_broken'));
    writeFileSync(
      join(dir, '99990101000000_broken', 'migration.sql'),
      'CREATE TABLE ok_part (id int);\nSELECT no_such_function();\n',
    );
    // From the migrated template (initdb and the real migrations are the slow part, and not what this
    // tests): only the broken migration is left to apply.
    const template = await readTemplate();
    const db = await PGlite.create(template ? { loadDataDir: template } : {});
    try {
      const factory = new PGliteAdapterFactory(db);
      await expect(applyMigrations(factory, dir)).rejects.toBeInstanceOf(MigrationError);
      const rows = await db.query<{ migration_name: string; finished: boolean }>(
        `SELECT migration_name, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name`,
      );
      expect(rows.rows.find((r) => r.migration_name === '99990101000000_broken')).toMatchObject({
        finished: false,
      });
      expect(rows.rows.filter((r) => r.finished)).toHaveLength(rows.rows.length - 1);
      // The script ran as one unit: its first statement did not stay behind.
      expect((await db.query(`SELECT to_regclass('ok_part') AS t`)).rows).toEqual([{ t: null }]);

      // Interactive transactions: a rollback really rolls back (the package sent a stray COMMIT).
      const prisma = new PrismaClient({ adapter: factory });
      const boom = prisma.$transaction(async (tx) => {
        await tx.game.create({
          data: { gameId: 'game_tx', seed: 1n, config: {}, rulesVersion: 'x', lastHash: 'h' },
        });
        throw new Error('boom');
      });
      await expect(boom).rejects.toThrow('boom');
      expect(await prisma.game.count({ where: { gameId: 'game_tx' } })).toBe(0);
      await prisma.$transaction(async (tx) => {
        await tx.game.create({
          data: { gameId: 'game_tx', seed: 1n, config: {}, rulesVersion: 'x', lastHash: 'h' },
        });
      });
      expect(await prisma.game.count({ where: { gameId: 'game_tx' } })).toBe(1);
      await prisma.$disconnect();
    } finally {
      await db.close();
    }
  });
});
