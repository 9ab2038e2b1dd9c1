import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { localMigrations, MIGRATIONS_DIR } from '../../src/store/migrations.js';
import { copyTemplate, ensureTemplate, readTemplate, replenishSpare, takeSpare } from '../../src/store/pglite-template.js';

const tmp = mkdtempSync(join(tmpdir(), 'tiltyard-template-'));
const cache = join(tmp, 'cache');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

type Applied = { migration_name: string; checksum: string; finished: boolean };
const APPLIED = `SELECT migration_name, checksum, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name`;

describe('the migrated PGlite template', () => {
  let file = '';
  // Building one is a fresh initdb plus every migration: generous on a loaded machine.
  beforeAll(async () => {
    file = await ensureTemplate(MIGRATIONS_DIR, cache);
  }, 300_000);

  it('given no template yet, then ensureTemplate writes one, and a second call finds it', async () => {
    expect(existsSync(file)).toBe(true);
    expect(await ensureTemplate(MIGRATIONS_DIR, cache)).toBe(file);
    expect(await readTemplate(MIGRATIONS_DIR, cache)).toBeInstanceOf(Blob);
    // Unpacked beside the dump: what a new data dir on disk is copied from.
    expect(existsSync(join(file.replace(/\.tar\.gz$/, ''), 'PG_VERSION'))).toBe(true);
  });

  it('given a folder that is not empty, then copyTemplate leaves it alone; given a missing one, then it becomes the unpacked template', async () => {
    const taken = join(tmp, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'mine'), 'x');
    expect(await copyTemplate(taken, MIGRATIONS_DIR, cache)).toBe(false);
    expect(existsSync(join(taken, 'PG_VERSION'))).toBe(false);
    const target = join(tmp, 'copied', 'pglite');
    mkdirSync(join(tmp, 'copied'));
    expect(await copyTemplate(target, MIGRATIONS_DIR, cache)).toBe(true);
    expect(existsSync(join(target, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${target}.${process.pid}.tmp`)).toBe(false);
  });

  it('given a new data dir and a cached template, then the store opens from it with every migration applied and stays on disk', async () => {
    const before = process.env['TILTYARD_CACHE_DIR'];
    process.env['TILTYARD_CACHE_DIR'] = cache;
    const dataDir = join(tmp, 'data');
    try {
      const store = await openStore({ dataDir });
      const rows = await store.prisma.$queryRawUnsafe<Applied[]>(APPLIED);
      const local = await localMigrations();
      expect(rows.map((r) => [r.migration_name, r.checksum, r.finished])).toEqual(
        local.map((m) => [m.name, m.checksum, true]),
      );
      await store.prisma.$executeRawUnsafe(
        `INSERT INTO games (game_id, seed, config, rules_version, last_hash) VALUES ('game_tpl', 1, '{}', 'x', 'h')`,
      );
      await store.close();
      // Reopened, it is the same database (the template is only for new ones).
      expect(existsSync(join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      const again = await openStore({ dataDir });
      expect(await again.prisma.game.count({ where: { gameId: 'game_tpl' } })).toBe(1);
      await again.close();
    } finally {
      if (before === undefined) delete process.env['TILTYARD_CACHE_DIR'];
      else process.env['TILTYARD_CACHE_DIR'] = before;
    }
  });

  it('given migrations the template was not built from, then there is no template for them', async () => {
    const dir = join(tmp, 'migrations');
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    mkdirSync(join(dir, '99990101000000_more'));
    writeFileSync(
      join(dir, '99990101000000_more', 'migration.sql'),
      'CREATE TABLE more_things (id int);\n',
    );
    expect(await readTemplate(dir, cache)).toBeNull();
    expect(await readTemplate(MIGRATIONS_DIR, cache)).not.toBeNull();
  });

  it('given the spare copy ensureTemplate makes, then a new data dir takes it by renaming; with no spare left, takeSpare declines (the caller copies)', async () => {
    const spare = `${file.replace(/\.tar\.gz$/, '')}.spare`;
    // The store test above may have taken the spare: ensureTemplate makes another.
    await ensureTemplate(MIGRATIONS_DIR, cache);
    expect(existsSync(join(spare, 'PG_VERSION'))).toBe(true);
    const taken = join(tmp, 'spare-taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'mine'), 'x');
    expect(await takeSpare(taken, MIGRATIONS_DIR, cache)).toBe(false);
    expect(existsSync(join(spare, 'PG_VERSION'))).toBe(true);
    const target = join(tmp, 'spare-target');
    expect(await takeSpare(target, MIGRATIONS_DIR, cache)).toBe(true);
    expect(existsSync(join(target, 'PG_VERSION'))).toBe(true);
    expect(existsSync(spare)).toBe(false);
    expect(await takeSpare(join(tmp, 'spare-none'), MIGRATIONS_DIR, cache)).toBe(false);
    expect(existsSync(join(tmp, 'spare-none'))).toBe(false);
  });

  it('given this process made a data dir from the template, then replenishSpare makes the next spare once; stopped mid-way, it leaves no half copy', async () => {
    const spare = `${file.replace(/\.tar\.gz$/, '')}.spare`;
    // A half copy left by a process that died (no process has that pid) goes first.
    const orphan = `${spare}.2147483646.tmp`;
    mkdirSync(orphan);
    // The test above took the spare.
    const job = await replenishSpare(MIGRATIONS_DIR, cache);
    expect(job).not.toBeNull();
    expect(await job!.done).toBe(true);
    expect(existsSync(join(spare, 'PG_VERSION'))).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    expect(await replenishSpare(MIGRATIONS_DIR, cache)).toBeNull();

    expect(await takeSpare(join(tmp, 'spare-again'), MIGRATIONS_DIR, cache)).toBe(true);
    const stopped = await replenishSpare(MIGRATIONS_DIR, cache);
    expect(stopped).not.toBeNull();
    await stopped!.stop();
    expect(readdirSync(cache).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // Whatever the worker got to, a spare that exists is whole: it is renamed into place complete.
    if (existsSync(spare)) expect(existsSync(join(spare, 'PG_VERSION'))).toBe(true);
  });
});
