import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import { createSeat } from '../agents/seat/create-seat.js';
import { evalPositions, readBank } from '../research/position-bank.js';
import { positionsReport } from '../research/position-report.js';
import { parseFlags } from './flags.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { positionsFormatted } from './positions-format.js';
import { PREFLIGHT_HELP, PREFLIGHT_OPTION, preflightOrRefuse } from './preflight-flag.js';
import { wholeFlag } from './research-flags.js';

const MAX_CONCURRENCY = 16;

export const EVAL_USAGE = `Usage: tiltyard positions eval --agent <spec> --bank <file> [--limit N] [--concurrency K] [--json]

Asks an agent for every position of a bank (tiltyard positions extract writes them; the shipped
one is positions/bank-v1.jsonl): one decision each, no game played. Each position's stored request
goes through the normal agent call path (a fresh seat per position, sitting where the position's
seat sat), so built-ins, skill:<folder> agents and llm:<provider> seats all answer as in a game.
Reports, with 95 % intervals:
  mean regret  the expert's rollout value of the position's best move minus that of the move made
               (percentile bootstrap, fixed seed); an illegal or missing answer counts as the pass
               the engine would force
  agreement    the share of positions where the agent made the expert's best move (Wilson)
  legality     the share of answers the engine would accept (Wilson)
Built-ins and llm:mock give the same report on every run.

  --agent <spec>     the agent: a built-in, skill:<folder> or llm:<provider>[:<model>]
  --bank <file>      the position bank (JSONL)
  --limit N          only the first N positions
  --concurrency K    positions asked at once, 1–${MAX_CONCURRENCY} (default 1; helps LLM and skill seats)
  --json             print the report (with every position's result) as one JSON object
${PREFLIGHT_HELP}

Progress on stderr, one line per 10 positions. Exit codes: 0 done; 2 bad usage or a bad bank line.
`;

/** `tiltyard positions eval …`: see EVAL_USAGE. */
export async function runEval(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(() =>
    parseArgs({
      args: [...argv],
      options: {
        agent: { type: 'string' },
        bank: { type: 'string' },
        limit: { type: 'string' },
        concurrency: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        ...PREFLIGHT_OPTION,
      },
      strict: true,
    }),
  );
  if (values.help) {
    io.out(EVAL_USAGE);
    return EXIT.ok;
  }
  if (!values.agent) throw new UsageError('--agent <spec> is required');
  if (!values.bank) throw new UsageError('--bank <file> is required');
  const spec = parseAgentSpec(values.agent);
  if (!spec.ok) throw new UsageError(`--agent: ${spec.message}`);
  const limit = wholeFlag('limit', values.limit, 1);
  const concurrency = Math.min(wholeFlag('concurrency', values.concurrency, 1) ?? 1, MAX_CONCURRENCY);
  let bank;
  try {
    bank = await readBank(values.bank);
  } catch (e) {
    throw new UsageError(`--bank: cannot read ${values.bank} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!Array.isArray(bank)) throw new UsageError(`--bank: ${values.bank} line ${bank.line}: ${bank.message}`);
  if (bank.length === 0) throw new UsageError(`--bank: ${values.bank} holds no positions`);
  await preflightOrRefuse([values.agent], values['no-preflight']);
  const asked = limit !== undefined ? bank.slice(0, limit) : bank;
  const results = await evalPositions(asked, (ctx) => createSeat(spec.agent, ctx), {
    concurrency,
    onProgress: (done, total) => {
      if (done % 10 === 0 || done === total) io.err(`positions eval ${values.agent}: ${done}/${total}\n`);
    },
  });
  const report = positionsReport(values.agent, basename(values.bank), results);
  io.out(values.json ? `${JSON.stringify(report)}\n` : positionsFormatted(report));
  return EXIT.ok;
}
