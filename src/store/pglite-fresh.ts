import { existsSync, rmSync, writeFileSync } from 'node:fs';

/**
 * A new embedded database is made in place: PGlite's initdb, or its dump unpacked, writes the data
 * dir file by file (PG_VERSION among the first). Cut short — a full disk, a kill — that leaves a
 * folder that is not a database but looks like one to the next open. So while a data dir is made,
 * `<dir>.creating` says so, and whatever finds that marker with the folder's lock held (nobody is
 * making it then) knows the folder is half-made.
 */
const markerOf = (dir: string): string => `${dir}.creating`;

/**
 * Removes a data dir a make left half-made (its marker is there), and the marker. Call it holding
 * the folder's lock. True when there was one.
 */
export function clearHalfMade(dir: string): boolean {
  if (!existsSync(markerOf(dir))) return false;
  rmSync(dir, { recursive: true, force: true });
  rmSync(markerOf(dir), { force: true });
  return true;
}

/**
 * Marks `dir` as being made; `done` once it is a database, `undo` (removes the folder) when making
 * it failed. The marker's write is the first write of a make, so a disk already full fails here,
 * with nothing left behind.
 */
export function markMaking(dir: string): { done(): void; undo(): void } {
  writeFileSync(markerOf(dir), `${process.pid}\n`, { mode: 0o600 });
  return {
    done: () => rmSync(markerOf(dir), { force: true }),
    undo: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(markerOf(dir), { force: true });
    },
  };
}
