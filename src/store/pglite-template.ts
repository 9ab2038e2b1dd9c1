import { createHash } from 'node:crypto';
import { constants, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, localMigrations, MIGRATIONS_DIR } from './migrations.js';
import { PGliteAdapterFactory } from './pglite-adapter.js';

/**
 * A fresh embedded database spends most of its first open in initdb and then in the schema engine
 * applying the migrations (tens of seconds on a loaded 2-core machine). A migrated data dir, dumped
 * once, loads in a fraction of that: this module keeps such dumps in a cache folder, one per set of
 * migrations, built by `npm install` (scripts/pglite-template.mjs) and the test setup. Beside each
 * dump it keeps the data dir unpacked: a new data dir on disk is a copy of that (a fifth of the CPU
 * time of unpacking the dump through PGlite's file system); the dump serves in-memory databases.
 */

/** node_modules/.cache/tiltyard beside src/ or dist/ (both sit one level under the package root). */
const DEFAULT_CACHE = fileURLToPath(
  new URL('../../node_modules/.cache/tiltyard/', import.meta.url),
);

/** PGlite's version (a dump is only good for the Postgres build that wrote it), from its package.json. */
function pgliteVersion(): string {
  try {
    const pkg = fileURLToPath(
      new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
    );
    return (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Where templates live: $TILTYARD_CACHE_DIR, else node_modules/.cache/tiltyard. */
export const templateCacheDir = (): string => process.env['TILTYARD_CACHE_DIR'] || DEFAULT_CACHE;

/** The cache file of a migrations folder: keyed by PGlite's version and every migration's name and checksum. */
async function templateFile(migrationsDir: string, cacheDir: string): Promise<string> {
  const migrations = await localMigrations(migrationsDir);
  const h = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  for (const m of migrations) h.update(`${m.name} ${m.checksum}\n`);
  return join(cacheDir, `pglite-${h.digest('hex').slice(0, 24)}.tar.gz`);
}

/** The unpacked data dir beside a dump: `pglite-<key>.tar.gz` → `pglite-<key>/`. */
const unpackedDir = (file: string): string => file.replace(/\.tar\.gz$/, '');

/** An empty or missing folder: one a template may be copied to. */
function vacant(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Makes `target` (a missing or empty folder) a copy of the unpacked template for these migrations;
 * false when there is none (the caller then loads the dump, or creates the database the slow
 * way). Copied under a temporary name and renamed, so a copy cut short never looks like a database.
 * Never throws: a cache is an optimisation.
 */
export async function copyTemplate(
  target: string,
  migrationsDir = MIGRATIONS_DIR,
  cacheDir = templateCacheDir(),
): Promise<boolean> {
  const tmp = `${target}.${process.pid}.tmp`;
  try {
    const source = unpackedDir(await templateFile(migrationsDir, cacheDir));
    if (!existsSync(join(source, 'PG_VERSION')) || !vacant(target)) return false;
    // Copy-on-write where the file system can (FICLONE), a plain copy elsewhere.
    cpSync(source, tmp, { recursive: true, mode: constants.COPYFILE_FICLONE });
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
    return true;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return false;
  }
}

/**
 * The migrated template for these migrations, or null when none has been built (the caller then
 * creates the database the slow way). Never throws: a cache is an optimisation.
 */
export async function readTemplate(
  migrationsDir = MIGRATIONS_DIR,
  cacheDir = templateCacheDir(),
): Promise<Blob | null> {
  try {
    const file = await templateFile(migrationsDir, cacheDir);
    return existsSync(file) ? new Blob([readFileSync(file)]) : null;
  } catch {
    return null;
  }
}

/**
 * Builds the template for these migrations unless it exists: a fresh in-memory PGlite, every
 * migration applied, the data dir dumped (gzip). Written to a temporary name and renamed, so
 * processes building it at once never read half a file. Returns its path.
 */
export async function ensureTemplate(
  migrationsDir = MIGRATIONS_DIR,
  cacheDir = templateCacheDir(),
): Promise<string> {
  const file = await templateFile(migrationsDir, cacheDir);
  if (!existsSync(file)) {
    const db = await PGlite.create('memory://');
    try {
      await applyMigrations(new PGliteAdapterFactory(db), migrationsDir);
      const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
      mkdirSync(cacheDir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, dump);
      renameSync(tmp, file);
    } finally {
      await db.close();
    }
  }
  await unpack(file);
  return file;
}

/** Unpacks a dump beside it unless done: opened once from the dump into a folder, closed cleanly. */
async function unpack(file: string): Promise<void> {
  const dir = unpackedDir(file);
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  const tmp = `${dir}.${process.pid}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  try {
    const db = await PGlite.create(tmp, { loadDataDir: new Blob([readFileSync(file)]) });
    await db.close();
    rmSync(dir, { recursive: true, force: true });
    renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
