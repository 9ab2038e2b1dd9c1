import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The real `tiltyard` executable (over dist/, built by the global setup). */
export const bin = join(import.meta.dirname, '..', '..', 'bin', 'tiltyard.js');

export type CliRun = { code: number; stdout: string; stderr: string };

/** Where a spawned tiltyard runs: its working directory and extra environment (undefined unsets). */
export type CliEnv = { cwd?: string; env?: Record<string, string | undefined> };

/** Spawns the real `tiltyard` bin (built by the global setup) and collects its output and exit code. */
export function tiltyard(...args: string[]): Promise<CliRun> {
  return tiltyardWith({}, ...args);
}

/** The same, in a given working directory and environment (a temp data folder, a DATABASE_URL…). */
export function tiltyardWith(options: CliEnv, ...args: string[]): Promise<CliRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DEBUG: '' };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, ...args], { maxBuffer: 64 * 1024 * 1024, env, ...(options.cwd ? { cwd: options.cwd } : {}) }, (error, stdout, stderr) => {
      const code = error ? error.code : 0;
      // A string code (ENOENT, …) means the process never ran; a number is its exit code.
      if (typeof code !== 'number') reject(new Error(`could not run tiltyard: ${String(code)}`, { cause: error }));
      else resolve({ code, stdout, stderr });
    });
  });
}
