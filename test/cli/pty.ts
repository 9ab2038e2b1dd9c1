import { execFile } from 'node:child_process';
import { bin, type CliEnv } from './run-cli.js';

/** A shell word: single-quoted, with embedded quotes closed and reopened. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the real `tiltyard` bin in a pseudo-terminal (util-linux `script`, no native module): its
 * stdout and stderr are both the terminal, so `output` is what a person would see, escape codes
 * and carriage returns included. `-e` passes the command's exit code through.
 */
export function tiltyardInPty(options: CliEnv, ...args: string[]): Promise<{ code: number; output: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DEBUG: '', TERM: 'xterm' };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    execFile('script', ['-qfec', command, '/dev/null'], { env, maxBuffer: 64 * 1024 * 1024, ...(options.cwd ? { cwd: options.cwd } : {}) }, (error, stdout) => {
      const code = error ? error.code : 0;
      if (typeof code !== 'number') reject(new Error(`could not run script: ${String(code)}`, { cause: error }));
      else resolve({ code, output: stdout });
    });
  });
}

/** A live line or bar redraws in place: a carriage return, then the line, then erase-to-end. */
export const redrawn = (output: string, text: string): boolean =>
  output.split('\r').some((chunk) => chunk.startsWith(text) && chunk.includes('\x1b[K'));
