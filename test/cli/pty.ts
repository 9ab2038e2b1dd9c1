import { execFile, spawn } from 'node:child_process';
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

/** ANSI escape sequences (readline's cursor moves and line erases), left out when reading prompts. */
// eslint-disable-next-line no-control-regex -- an escape sequence starts with ESC
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** The menus' prompts (src/cli/terminal-form.ts), as the last thing on the screen. */
const PROMPT = /(Choose 1–\d+ \[Enter: \d+\]|\[Enter[^\]\n]*\]): *$/;

/**
 * Runs `tiltyard` in a pseudo-terminal as a person at it: whenever the screen ends in one of the
 * menus' prompts, `answer(screen)` gives the line to type (the screen is the output so far, escape
 * codes and carriage returns removed), and Enter is pressed after it. Resolves with the exit code and everything shown.
 */
export function tiltyardAtTerminal(args: readonly string[], answer: (screen: string) => string): Promise<{ code: number; output: string; answers: number }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TILTYARD_DEBUG: '', TERM: 'xterm' };
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    let output = '';
    let answeredAt = -1;
    let answers = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const screen = output.replace(ANSI, '').replace(/\r/g, '');
      if (output.length === answeredAt || !PROMPT.test(screen)) return;
      answeredAt = output.length;
      answers++;
      child.stdin.write(`${answer(screen)}\r`);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output: output.replace(ANSI, '').replace(/\r/g, ''), answers }));
  });
}
