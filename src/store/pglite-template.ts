import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { applyMigrations, localMigrations, MIGRATIONS_DIR } from './migrations.js';
import { PGliteAdapterFactory } from './pglite-adapter.js';

/**
 * A fresh embedded database spends most of its first open in initdb and then in the schema engine
 * applying the migrations (tens of seconds on a loaded 2-core machine). A migrated data dir, dumped
 * once, loads in a fraction of that: this module keeps such dumps in a cache folder, one per set of
 * migrations, built by `npm install` (scripts/pglite-template.mjs) and the test setup.
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
  if (existsSync(file)) return file;
  const db = await PGlite.create('memory://');
  try {
    await applyMigrations(new PGliteAdapterFactory(db), migrationsDir);
    const dump = Buffer.from(await (await db.dumpDataDir('gzip')).arrayBuffer());
    mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, dump);
    renameSync(tmp, file);
    return file;
  } finally {
    await db.close();
  }
}
