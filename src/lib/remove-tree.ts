import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

/** rm from the system's own folders, not the caller's PATH (which may be anything, or nothing). */
const RM = ['/usr/bin/rm', '/bin/rm'].find((p) => existsSync(p)) ?? null;

/**
 * Removes `dir` and everything in it from another process (`rm -rf`), resolving once it is gone;
 * a missing folder is fine. For folders whose contents are not ours to bound, an agent's work dir
 * above all: rmSync held the event loop for the whole deletion (3.0 s for 50,000 empty files
 * here), and fs.promises.rm hands back the callbacks of a folder's entries in one burst (2.1 s of
 * event-loop delay for the same folder) — still the fallback on a system without /bin/rm.
 * Rejects with rm's message when it cannot remove it all.
 *
 * @example
 * await removeTree('/tmp/tiltyard-agents/my-skill-seat1-Ab3xYz');
 */
export function removeTree(dir: string): Promise<void> {
  if (!RM) return rm(dir, { recursive: true, force: true });
  return new Promise((resolve, reject) => {
    execFile(RM, ['-rf', '--', dir], (err, _stdout, stderr) => {
      if (err) reject(new Error(`cannot remove ${dir}: ${stderr.trim() || err.message}`, { cause: err }));
      else resolve();
    });
  });
}
