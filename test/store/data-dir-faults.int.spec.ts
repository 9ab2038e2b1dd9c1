import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, StoreUnavailableError } from '../../src/store/index.js';
import { readOnlyDir, smallDisk } from './fs-faults.js';

/** Opening the store must fail with a StoreUnavailableError; its message. */
async function failure(dataDir: string): Promise<string> {
  const e = await openStore({ dataDir }).then(
    async (s) => (await s.close(), null),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StoreUnavailableError);
  return (e as Error).message;
}

/** What a read-only folder answers: EROFS on a read-only mount, EACCES through a chmod (no root). */
const READ_ONLY = /(read-only file system \(EROFS\)|permission denied \(EACCES\))/;

describe('the embedded database on a disk that refuses: the message names the path and the cause', () => {
  const ro = readOnlyDir();

  it.runIf(ro)('given a read-only data folder, then "cannot lock" says which file and why', async () => {
    try {
      const message = await failure(ro!.dir);
      expect(message).toContain(`cannot lock ${join(ro!.dir, 'pglite.lock')}: `);
      expect(message).toMatch(READ_ONLY);
      // A data folder still to be made, inside it: the same cause, for the folder.
      expect(await failure(join(ro!.dir, 'sub'))).toMatch(new RegExp(`^cannot create the data folder ${join(ro!.dir, 'sub')}: ${READ_ONLY.source}`));
    } finally {
      ro!.dispose();
    }
  });

  // 1 MiB: room for the lock file, not for a database (a migrated one is ~40 MB).
  const disk = smallDisk(1024 * 1024);

  it.runIf(disk)('given a disk too full for a new database, then it says "no space left on device" with the path, leaves no half-made data dir, and opens once there is room', async () => {
    const { dir } = disk!;
    try {
      const message = await failure(dir);
      expect(message).toMatch(new RegExp(`^cannot create the embedded database at ${join(dir, 'pglite')}: no space left on device \\(ENOSPC\\)`));
      // Nothing is left that the next open could take for a database (nor the lock).
      expect(readdirSync(dir)).toEqual([]);
      disk!.grow(96 * 1024 * 1024);
      const store = await openStore({ dataDir: dir });
      try {
        expect(existsSync(join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
        expect((await store.listGames()).games).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      disk!.dispose();
    }
  });
});
