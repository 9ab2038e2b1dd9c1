import { EXIT, UsageError } from '../io.js';
import { EVAL_USAGE, runEval } from '../positions-eval.js';
import { EXTRACT_USAGE, runExtract } from '../positions-extract.js';
import type { Command } from './command.js';

export const positionsCommand: Command = {
  name: 'positions',
  summary: 'mine scored decision points from stored games into a bank, and benchmark an agent on one (one decision a position)',
  usage: `Usage: tiltyard positions extract [options]   mine a position bank from stored games
       tiltyard positions eval --agent <spec> --bank <file> [options]   benchmark an agent on a bank
       tiltyard positions eval --agent <spec> --against <spec> --bank <file>   compare two, position by position

A position is one decision a seat faced in a stored game: the request as its agent got it, with
every legal move scored by the expert's rollouts. docs/research.md ("Positions") explains the bank,
the figures and the shipped banks (positions/bank-v2.jsonl; v1 kept for reproducibility).

${EXTRACT_USAGE}
${EVAL_USAGE}`,
  run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub === 'extract') return runExtract(rest, io);
    if (sub === 'eval') return runEval(rest, io);
    if (sub === undefined || sub === '--help' || sub === '-h') {
      io.out(this.usage);
      return EXIT.ok;
    }
    throw new UsageError(`positions: unknown subcommand "${sub}" (extract or eval)`);
  },
};
