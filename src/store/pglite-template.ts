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
 * And beside that a spare copy, made ahead of time: a new data dir takes it by renaming (copying
 * the thousand files of a data dir cost 0.3–0.9 s of CPU, in the kernel, on a fresh start's path),
 * and the server that took it makes the next one once it has started (replenishSpare).
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

/** The spare copy beside the unpacked template: `pglite-<key>/` → `pglite-<key>.spare/`. */
const spareOf = (file: string): string => `${unpackedDir(file)}.spare`;

/**
 * Whether this process made a data dir from the template (took the spare or copied): then it
 * makes the next spare once it has time (replenishSpare), so the next fresh start takes one.
 */
let madeFromTemplate = false;

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
    madeFromTemplate = true;
    return true;
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return false;
  }
}

/**
 * Makes `target` (a missing or empty folder) the spare copy of the template for these migrations,
 * by renaming it: no copy on the start's path. False when there is no spare (or it sits on another
 * file system); the caller then copies the template (copyTemplate). Never throws.
 */
export async function takeSpare(
  target: string,
  migrationsDir = MIGRATIONS_DIR,
  cacheDir = templateCacheDir(),
): Promise<boolean> {
  try {
    const spare = spareOf(await templateFile(migrationsDir, cacheDir));
    if (!existsSync(join(spare, 'PG_VERSION')) || !vacant(target)) return false;
    rmSync(target, { recursive: true, force: true });
    // Atomic: of processes racing for one spare, one gets it and the others copy.
    renameSync(spare, target);
    madeFromTemplate = true;
    return true;
  } catch {
    return false;
  }
}

/**
 * The copy a worker thread makes (plain CommonJS: a worker evaluates it on its own): the unpacked
 * template copied under a temporary name, then renamed into place unless another process made a
 * spare meanwhile. Copies left by processes that died mid-way (their pid no longer runs) go first.
 */
const SPARE_COPY = `
const { constants, cpSync, existsSync, readdirSync, renameSync, rmSync } = require('node:fs');
const { basename, dirname, join } = require('node:path');
const { workerData: { from, spare, tmp } } = require('node:worker_threads');
const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
for (const name of readdirSync(dirname(spare))) {
  const m = name.startsWith(basename(spare) + '.') && /\\.(\\d+)\\.tmp$/.exec(name);
  if (m && !alive(Number(m[1]))) rmSync(join(dirname(spare), name), { recursive: true, force: true });
}
if (!existsSync(spare)) {
  try {
    cpSync(from, tmp, { recursive: true, mode: constants.COPYFILE_FICLONE });
    if (!existsSync(spare)) renameSync(tmp, spare);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
`;

/** A spare being made in the background: `done` says whether one is there; `stop` abandons it. */
export type SpareJob = { done: Promise<boolean>; stop(): Promise<void> };

/**
 * Makes the next spare in a worker thread (off the event loop) when this process made a data dir
 * from the template and there is no spare; null otherwise. `stop` (at shutdown) ends the worker and
 * removes its half-made copy. Never throws: a cache is an optimisation.
 */
export async function replenishSpare(
  migrationsDir = MIGRATIONS_DIR,
  cacheDir = templateCacheDir(),
): Promise<SpareJob | null> {
  if (!madeFromTemplate) return null;
  madeFromTemplate = false;
  try {
    const file = await templateFile(migrationsDir, cacheDir);
    const from = unpackedDir(file);
    const spare = spareOf(file);
    if (!existsSync(join(from, 'PG_VERSION')) || existsSync(spare)) return null;
    const tmp = `${spare}.${process.pid}.tmp`;
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(SPARE_COPY, { eval: true, workerData: { from, spare, tmp } });
    worker.unref();
    const done = new Promise<boolean>((resolve) => {
      worker.once('error', () => resolve(false));
      worker.once('exit', () => resolve(existsSync(join(spare, 'PG_VERSION'))));
    });
    return {
      done,
      async stop() {
        await worker.terminate();
        await done;
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch {
    return null;
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
  makeSpare(file);
  return file;
}

/** Makes the spare copy beside an unpacked template unless there is one (npm install, test setup). */
function makeSpare(file: string): void {
  const spare = spareOf(file);
  if (existsSync(join(spare, 'PG_VERSION'))) return;
  const tmp = `${spare}.${process.pid}.tmp`;
  try {
    cpSync(unpackedDir(file), tmp, { recursive: true, mode: constants.COPYFILE_FICLONE });
    if (!existsSync(spare)) renameSync(tmp, spare);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
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
