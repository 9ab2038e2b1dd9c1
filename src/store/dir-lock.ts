import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { StoreUnavailableError } from './errors.js';
import { describeFsError } from './fs-errors.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** What a lock file says: the holder's pid, and the socket folder where it serves the database (if it does). */
export type LockHolder = { pid: number; socket: string | null };

/** Reads a lock file: `{"pid":N,"socket":"…"}`, or a bare pid (as written before sharing existed). */
export function readLock(lockPath: string): LockHolder | null {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return null;
  }
  try {
    const j = JSON.parse(text) as { pid?: unknown; socket?: unknown };
    const pid = typeof j === 'number' ? j : Number(j.pid);
    const socket = typeof j === 'object' && typeof j.socket === 'string' ? j.socket : null;
    return Number.isInteger(pid) && pid > 0 ? { pid, socket } : null;
  } catch {
    return null;
  }
}

/** The live process holding the lock, or null when it is free or its holder died. */
export function liveHolder(lockPath: string): LockHolder | null {
  const h = readLock(lockPath);
  return h && (h.pid === process.pid || alive(h.pid)) ? h : null;
}

/** The embedded database is held by a live process (which may serve it on a socket: `holder.socket`). */
export class DirLockedError extends StoreUnavailableError {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      `the embedded database at ${lockPath.replace(/\.lock$/, '')} is in use by process ${holder.pid}; stop it or set DATABASE_URL to share a PostgreSQL server`,
    );
  }
}

/**
 * An exclusive lock on an embedded database's folder: PGlite is one process's database, and two
 * processes opening the same folder would corrupt it. The lock file records the holder's pid and,
 * when it serves the database to other processes, its socket folder. A lock left by a dead process
 * is taken over. Returns the release function; a live holder is a DirLockedError.
 */
export function lockDir(lockPath: string, socket: string | null = null): () => void {
  const record = JSON.stringify({ pid: process.pid, socket });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, record, { flag: 'wx', mode: 0o600 });
      return () => rmSync(lockPath, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StoreUnavailableError(`cannot lock ${lockPath}: ${describeFsError(e)}`, { cause: e });
      const holder = liveHolder(lockPath);
      if (holder) throw new DirLockedError(lockPath, holder);
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreUnavailableError(`cannot lock ${lockPath}`);
}
