import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Real file-system faults for the store's tests, made cheaply: a small tmpfs fills up for real
 * (ENOSPC), a read-only one refuses writes for real (EROFS). Mounting needs root (CI containers
 * and this machine run tests as root); elsewhere a full disk cannot be made and those tests skip,
 * and a read-only folder is a chmod (EACCES), which root would ignore.
 */

const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });

/** A tmpfs at a new folder; null when this process may not mount. */
function tmpfs(options: string): { dir: string; remount(options: string): void; dispose(): void } | null {
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-fs-'));
  try {
    mount('-t', 'tmpfs', '-o', options, 'tmpfs', dir);
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  return {
    dir,
    remount: (more) => void mount('-o', `remount,${more}`, dir),
    dispose: () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A disk of `bytes` (a tmpfs) that `grow` enlarges in place; null when mounting is not permitted. */
export function smallDisk(bytes: number): { dir: string; grow(bytes: number): void; dispose(): void } | null {
  const fs = tmpfs(`size=${bytes}`);
  return fs && { dir: fs.dir, grow: (to) => fs.remount(`size=${to}`), dispose: () => fs.dispose() };
}

/**
 * A folder nothing may be written to: a read-only tmpfs (EROFS), or without root a chmod 0555
 * (EACCES); null for a root that may not mount (it would write through the chmod).
 */
export function readOnlyDir(): { dir: string; dispose(): void } | null {
  const fs = tmpfs('size=1m,ro');
  if (fs) return fs;
  if (process.getuid?.() === 0) return null;
  const dir = mkdtempSync(join(tmpdir(), 'tiltyard-ro-'));
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o555);
  return {
    dir,
    dispose() {
      chmodSync(dir, 0o755);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Fills the file system under `dir` up to `room` free bytes with one file; removing that file frees the space. */
export function fillDisk(dir: string, room: number): string {
  const file = join(dir, 'filler');
  const { bavail, bsize } = statfsSync(dir);
  writeFileSync(file, Buffer.alloc(Math.max(0, bavail * bsize - room)));
  return file;
}
