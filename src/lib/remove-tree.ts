import { execFile } from 'node:child_process';

/**
 * Removes `dir` and everything in it from another process (`rm -rf`), resolving once it is gone;
 * a missing folder is fine. For folders whose contents are not ours to bound, an agent's work dir
 * above all: rmSync held the event loop for the whole deletion (3.0 s for 50,000 empty files
 * here), and fs.promises.rm hands back the callbacks of a folder's entries in one burst (2.1 s of
 * event-loop delay for the same folder). Rejects with rm's message when it cannot remove it all.
 *
 * @example
 * await removeTree('/tmp/tiltyard-agents/my-skill-seat1-Ab3xYz');
 */
export function removeTree(dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('rm', ['-rf', '--', dir], (err, _stdout, stderr) => {
      if (err) reject(new Error(`cannot remove ${dir}: ${stderr.trim() || err.message}`, { cause: err }));
      else resolve();
    });
  });
}
