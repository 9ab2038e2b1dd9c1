import { once } from 'node:events';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandByName } from './commands/by-name.js';
import type { Command } from './commands/command.js';
import { bootMark } from '../lib/boot-marks.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { describeChain } from '../store/transient.js';

const usage = (commands: readonly Command[]) => `Usage: tiltyard <command> [flags]

Tiltyard: AI agents play a seeded, deterministic card game of bluff, pressure and tilt.

Commands:
${commands.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`).join('\n')}

Run \`tiltyard <command> --help\` for a command's flags. Exit codes: 0 ok, 1 error, 2 bad usage.
`;

/**
 * `--seed -1` → `--seed=-1`: node's parseArgs takes a value starting with "-" for a flag and
 * refuses it ("use --seed=-1"). No positional argument of ours is a negative number, so joining
 * lets the flag's own check answer (for --seed: the range of seeds).
 */
function joinNegativeValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const [a, next] = [args[i]!, args[i + 1]];
    if (/^--[a-z][\w-]*$/.test(a) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/**
 * Runs one command line and returns the exit code. Bad usage prints one `tiltyard: <reason>`
 * line (exit 2); anything unexpected prints one line too (exit 1), with the stack only when
 * TILTYARD_DEBUG is set.
 *
 * @example await main(['simulate', '--games', '10', '--json'], io) // 0
 */
export async function main(argv: readonly string[], io: CliIo, table?: readonly Command[]): Promise<number> {
  const [name, ...rest] = argv;
  const all = async () => table ?? (await import('./commands/index.js')).COMMANDS;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage(await all()));
    return EXIT.ok;
  }
  try {
    // A known name loads its own command alone (see by-name.ts); anything else gets the whole table.
    const own = table ? undefined : await commandByName(name);
    const commands = own ? [own] : await all();
    const command = commands.find((c) => c.name === name);
    if (!command) throw new UsageError(`unknown command "${name}" (commands: ${commands.map((c) => c.name).join(', ')}; see tiltyard --help)`);
    return await command.run(joinNegativeValues(rest), io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`tiltyard: ${e.message}\n`);
      return EXIT.usage;
    }
    const err = e instanceof Error ? e : new Error(String(e));
    // The whole cause chain: an AggregateError of refused connections has no message of its own.
    io.err(`tiltyard: unexpected error: ${describeChain(err).replace(/^Error: /, '')}\n`);
    if (process.env['TILTYARD_DEBUG']) io.err(`${err.stack ?? ''}\n`);
    return EXIT.failure;
  }
}

/** Binds `main` to this process: argv, stdout/stderr, exit code; a closed pipe (`| head`) ends quietly. */
export async function runCli(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  bootMark('cli loaded');
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') process.stderr.write(`tiltyard: cannot write output: ${e.message}\n`);
    process.exit(e.code === 'EPIPE' ? (process.exitCode ?? EXIT.ok) : EXIT.failure);
  });
  const io: CliIo = {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTTY: process.stderr.isTTY === true,
    outDrained: () => (process.stdout.writableNeedDrain ? once(process.stdout, 'drain').then(() => {}) : Promise.resolve()),
  };
  const code = await main(argv, io);
  process.exitCode = code;
  // A command is done when main returns (serve returns once the server has stopped). Libraries may
  // leave timers behind — Prisma's WASM migration engine keeps one for ~10 s — so exit once the
  // output is flushed instead of waiting for the event loop to drain.
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((done) => s.write('', () => done()))));
  process.exit(code);
}

const isEntry = (path: string | undefined): boolean => {
  try {
    return path !== undefined && realpathSync(path) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
};

// `npx tsx src/cli/main.ts …` runs it directly; the bin imports it and calls runCli.
if (isEntry(process.argv[1])) await runCli();
