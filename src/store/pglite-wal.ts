import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite runs PostgreSQL in single-user mode: there is no checkpointer, so nothing ever ends a WAL
 * segment's life but an explicit CHECKPOINT or closing the database. A server left running (the
 * `npm start` demo table plays forever) grew pg_wal by ~2 MB a game without bound. The start
 * parameters cap what a checkpoint keeps (max_wal_size, min_wal_size); this runs the checkpoints.
 */
export const WAL_PARAMS = ['-c', 'max_wal_size=32MB', '-c', 'min_wal_size=32MB'];

/** Segments (16 MB each) pg_wal may hold before a checkpoint: twice what one keeps. */
const MAX_SEGMENTS = 4;
const CHECK_EVERY_MS = 30_000;
const SEGMENT = /^[0-9A-F]{24}$/;

/** WAL segment files in a PGlite data dir's pg_wal. */
export async function walSegments(dir: string): Promise<number> {
  return (await readdir(join(dir, 'pg_wal'))).filter((f) => SEGMENT.test(f)).length;
}

/**
 * Checks `dir`'s pg_wal every 30 s and checkpoints when it holds more than four segments (the
 * checkpoint then recycles it down to two). Errors are ignored: the next check tries again, and a
 * closed database stops the guard. Returns the stop function; the timer never keeps a process up.
 */
export function guardWal(db: PGlite, dir: string, everyMs = CHECK_EVERY_MS): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy || db.closed) return;
    busy = true;
    void walSegments(dir)
      .then((n) => (n > MAX_SEGMENTS && !db.closed ? db.exec('CHECKPOINT') : undefined))
      .catch(() => undefined)
      .finally(() => {
        busy = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
