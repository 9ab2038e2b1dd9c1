import { main } from '../../src/cli/main.js';
import type { CliEnv, CliRun } from './run-cli.js';

/** Calls run one after another: each sets this process's environment and working directory. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * One `tiltyard` command line run inside the test process (main() with captured output, not a
 * terminal), in a working directory and environment as tiltyardWith sets them for a spawned one.
 * For tests whose subject is a command's result, not the process boundary: a spawned CLI costs a
 * node start, the bundle load and a cold embedded database each time, in here the warm code
 * opens it in a fraction of that. Keep at least one spawned run per command and behaviour.
 */
export function tiltyardInProcess(options: CliEnv, ...args: string[]): Promise<CliRun> {
  const run = queue.then(() => runHere(options, args));
  queue = run.catch(() => {});
  return run;
}

async function runHere(options: CliEnv, args: string[]): Promise<CliRun> {
  const env = { TILTYARD_DEBUG: '', ...options.env };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  const cwd = process.cwd();
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  let stdout = '';
  let stderr = '';
  set(env);
  if (options.cwd) process.chdir(options.cwd);
  try {
    const code = await main(args, { out: (t) => void (stdout += t), err: (t) => void (stderr += t), errIsTTY: false });
    return { code, stdout, stderr };
  } finally {
    process.chdir(cwd);
    set(saved);
  }
}
