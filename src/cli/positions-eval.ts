import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseAgentSpec, type AgentSpec } from '../agents/seat/agent-spec.js';
import { createSeat } from '../agents/seat/create-seat.js';
import type { PositionRecord } from '../research/position-record.js';
import { evalPositions, readBank } from '../research/position-bank.js';
import { comparePaired } from '../research/position-compare.js';
import { positionsReport, type PositionsReport } from '../research/position-report.js';
import { issueLine, parseFlags } from './flags.js';
import { EXIT, UsageError, type CliIo } from './io.js';
import { pairedFormatted, positionsFormatted } from './positions-format.js';
import { PREFLIGHT_HELP, PREFLIGHT_OPTION, preflightOrRefuse } from './preflight-flag.js';

const MAX_CONCURRENCY = 16;

export const EVAL_USAGE = `Usage: tiltyard positions eval --agent <spec> --bank <file> [--against <spec>] [--limit N] [--concurrency K] [--json]

Asks an agent for every position of a bank (tiltyard positions extract writes them; the shipped
one is positions/bank-v2.jsonl): one decision each, no game played. Each position's stored request
goes through the normal agent call path (a fresh seat per position, sitting where the position's
seat sat), so built-ins, skill:<folder> agents and llm:<provider> seats all answer as in a game.
The exact answer, framing included, is played in the worlds the bank scored the position in, with
the same rollout seeds. Reports, with 95 % intervals:
  mean regret  the expert's rollout value of the best move minus that of the answer (percentile
               bootstrap, fixed seed); an illegal or missing answer counts as the pass the engine
               would force. mean move regret: the same for the move made, as the bank plays it
  agreement    the share of positions where the agent made the expert's best move (Wilson)
  legality     the share of answers the engine would accept (Wilson)
With --against, a second agent answers the same positions and the report adds the mean paired
difference of regret (first − second) with its 95 % bootstrap interval over positions, whether it
excludes 0, and the smallest difference the bank detects for the pair (2.8 · sd / √n).
Built-ins and llm:mock give the same report on every run.

  --agent <spec>     the agent: a built-in, skill:<folder> or llm:<provider>[:<model>]
  --bank <file>      the position bank (JSONL)
  --against <spec>   a second agent to compare with, position by position
  --limit N          only the first N positions
  --concurrency K    positions asked at once, 1–${MAX_CONCURRENCY} (default 1; helps LLM and skill seats)
  --json             print the report (with every position's result) as one JSON object; with
                     --against, the second agent's report under "against" and the comparison under "paired"
${PREFLIGHT_HELP}

Progress on stderr, one line per 10 positions. Exit codes: 0 done; 2 bad usage or a bad bank line.
`;

const Spec = z.string().transform((s, ctx): AgentSpec => {
  const r = parseAgentSpec(s);
  if (!r.ok) {
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  }
  return r.agent;
});

const Whole = (min: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, { error: (issue) => `must be a whole number, got "${String(issue.input)}"` })
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= min, { error: `must be a whole number ≥ ${min}` });

/** The eval's flags as zod checks them: one usage line naming the first bad flag. */
const EvalFlags = z
  .object({
    agent: z.string({ error: 'is required' }),
    bank: z.string({ error: 'is required' }),
    against: z.string().optional(),
    limit: Whole(1).optional(),
    concurrency: Whole(1).default(1).transform((k) => Math.min(k, MAX_CONCURRENCY)),
    json: z.boolean().default(false),
    'no-preflight': z.boolean().default(false),
  })
  .refine((f) => f.against === undefined || f.against !== f.agent, { path: ['against'], error: 'must name another agent than --agent' });

/** Asks one agent the positions with progress on stderr and reports its answers. */
async function evaluate(label: string, spec: AgentSpec, bankName: string, positions: readonly PositionRecord[], concurrency: number, io: CliIo): Promise<PositionsReport> {
  const results = await evalPositions(positions, (ctx) => createSeat(spec, ctx), {
    concurrency,
    onProgress: (done, total) => {
      if (done % 10 === 0 || done === total) io.err(`positions eval ${label}: ${done}/${total}\n`);
    },
  });
  return positionsReport(label, bankName, results);
}

/** `tiltyard positions eval …`: see EVAL_USAGE. */
export async function runEval(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseFlags(() =>
    parseArgs({
      args: [...argv],
      options: {
        agent: { type: 'string' },
        bank: { type: 'string' },
        against: { type: 'string' },
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
  const parsed = EvalFlags.safeParse(values);
  if (!parsed.success) throw new UsageError(issueLine(parsed.error));
  const f = parsed.data;
  const agent = Spec.safeParse(f.agent);
  if (!agent.success) throw new UsageError(`--agent: ${agent.error.issues[0]!.message}`);
  const against = f.against === undefined ? undefined : Spec.safeParse(f.against);
  if (against && !against.success) throw new UsageError(`--against: ${against.error.issues[0]!.message}`);
  let bank;
  try {
    bank = await readBank(f.bank);
  } catch (e) {
    throw new UsageError(`--bank: cannot read ${f.bank} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  if (!Array.isArray(bank)) throw new UsageError(`--bank: ${f.bank} line ${bank.line}: ${bank.message}`);
  if (bank.length === 0) throw new UsageError(`--bank: ${f.bank} holds no positions`);
  await preflightOrRefuse(f.against === undefined ? [f.agent] : [f.agent, f.against], f['no-preflight']);
  const asked = f.limit !== undefined ? bank.slice(0, f.limit) : bank;
  const name = basename(f.bank);
  const report = await evaluate(f.agent, agent.data, name, asked, f.concurrency, io);
  if (!against || f.against === undefined) {
    io.out(f.json ? `${JSON.stringify(report)}\n` : positionsFormatted(report));
    return EXIT.ok;
  }
  const other = await evaluate(f.against, against.data, name, asked, f.concurrency, io);
  const paired = comparePaired(f.agent, report.results, f.against, other.results);
  io.out(f.json ? `${JSON.stringify({ ...report, against: other, paired })}\n` : `${positionsFormatted(report)}${positionsFormatted(other)}${pairedFormatted(paired)}`);
  return EXIT.ok;
}
