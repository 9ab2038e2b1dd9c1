import { execFile } from 'node:child_process';
import { join } from 'node:path';

const bin = join(import.meta.dirname, '..', '..', 'bin', 'tiltyard.js');

export type CliRun = { code: number; stdout: string; stderr: string };

/** Spawns the real `tiltyard` bin (built by the global setup) and collects its output and exit code. */
export function tiltyard(...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 64 * 1024 * 1024, env: { ...process.env, TILTYARD_DEBUG: '' } }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      // A string code (ENOENT, …) means the process never ran; a number is its exit code.
      if (typeof code !== 'number') reject(new Error(`could not run tiltyard: ${String(code)}`, { cause: error }));
      else resolve({ code, stdout, stderr });
    });
  });
}
