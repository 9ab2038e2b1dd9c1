import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { StoreUnavailableError } from './errors.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * An exclusive lock on an embedded database's folder: PGlite is one process's database, and two
 * processes opening the same folder would corrupt it. A lock left by a dead process is taken
 * over. Returns the release function.
 */
export function lockDir(lockPath: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockPath, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StoreUnavailableError(`cannot lock ${lockPath}`, { cause: e });
      const holder = Number(readFileSync(lockPath, 'utf8'));
      if (holder === process.pid || (Number.isInteger(holder) && holder > 0 && alive(holder))) {
        throw new StoreUnavailableError(
          `the embedded database at ${lockPath.replace(/\.lock$/, '')} is in use by process ${holder}; stop it or set DATABASE_URL to share a PostgreSQL server`,
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new StoreUnavailableError(`cannot lock ${lockPath}`);
}
