import type { CliIo } from '../io.js';

/**
 * One `tiltyard <name>` command. The table in commands/index.ts lists them; `main` dispatches,
 * prints usage and maps errors to exit codes, so a command only parses its flags and does its job.
 */
export type Command = {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The command's usage block (after `tiltyard <name> --help`). */
  readonly usage: string;
  run(argv: readonly string[], io: CliIo): number | Promise<number>;
};
