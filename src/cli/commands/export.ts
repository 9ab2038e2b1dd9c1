import { parseArgs } from 'node:util';
import { z } from 'zod';
import { exportGames, selectGames, type ExportSelection } from '../../research/export-stream.js';
import { GameStatus } from '../../store/index.js';
import { int } from '../format.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { fileSink, stdoutSink } from '../sinks.js';
import { progressBar } from '../progress.js';
import { withStore } from '../store-session.js';
import type { Command } from './command.js';

const ExportFlags = z.object({
  tournament: z.string().min(1, { error: 'must name a tournament (tiltyard tournaments lists them)' }).optional(),
  status: GameStatus.optional(),
  agent: z.string().min(1, { error: 'must name an agent spec' }).optional(),
  limit: z
    .string()
    .regex(/^\d+$/, { error: (issue) => `must be a whole number ≥ 1, got "${String(issue.input)}"` })
    .transform(Number)
    .refine((n) => n >= 1, { error: 'must be a whole number ≥ 1, got 0' })
    .optional(),
  format: z.enum(['jsonl', 'csv'], { error: (issue) => `must be jsonl or csv, got "${String(issue.input)}"` }).default('jsonl'),
  out: z.string().min(1, { error: 'must name a file' }).optional(),
  progress: z.boolean().default(false),
});

/** The flags as zod reads them, or a UsageError naming the first bad one. */
function flagsOf(values: Record<string, unknown>): z.infer<typeof ExportFlags> {
  const parsed = ExportFlags.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const message = issue.path[0] === 'status' ? `must be one of ${GameStatus.options.join(', ')}, got "${String(values['status'])}"` : issue.message;
  throw new UsageError(`--${String(issue.path[0])}: ${message}`);
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'write every decision of stored games as JSONL or CSV (request, answer, reasoning, outcome)',
  usage: `Usage: tiltyard export [--tournament <id>] [--status S] [--agent A] [--limit N]
                       [--format jsonl|csv] [--out FILE] [--progress]

Writes one record per decision of the selected stored games, oldest game first: the game, the seat
and its agent, the window, seq and round, the request exactly as the seat's agent got it (its own
view only), the answer, the reasoning an LLM seat gave, rejections and repairs from the trace, and
the outcome (the events the decision produced as the seat saw them, its lives and resolve before
and after, its final placement) and its win probability added (wpa: the seat's chance to win after
the decision minus before, for ended games). The record's JSON Schema: docs/schemas/export-record.schema.json;
docs/research.md ("Export") explains the fields. Nothing is played and no agent is called: each
game is replayed from its seed and recorded decisions, and must reproduce its stored log.

Games are read a couple at a time and every line waits for the output to take it, so memory stays
flat however many games are exported.

  --tournament <id>  that tournament's games (tiltyard tournaments lists them)
  --status S         only games in status S (${GameStatus.options.join(', ')})
  --agent A          only games with a seat of agent A (its spec, e.g. balanced or llm:mock:m)
  --limit N          at most N games (the oldest first)
                     Without any of these: every stored game.
  --format F         jsonl (default): one JSON object per line; csv: a header line, then one row
                     per decision, the nested parts (request, decision, trace, outcome events) as
                     JSON strings
  --out FILE         write to FILE instead of stdout
  --progress         one "exported <game> (i/n) · N records" line on stderr per game (a terminal
                     shows a progress bar without it)

Exit codes: 0 every selected game exported; 1 a game could not be (it is skipped and named on
stderr; the others are exported) or the store failed; 2 bad usage.
`,
  async run(argv, io) {
    const { values } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: {
          tournament: { type: 'string' },
          status: { type: 'string' },
          agent: { type: 'string' },
          limit: { type: 'string' },
          format: { type: 'string' },
          out: { type: 'string' },
          progress: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
      }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const f = flagsOf(values);
    const selection: ExportSelection = {
      ...(f.tournament !== undefined ? { tournament_id: f.tournament } : {}),
      ...(f.status !== undefined ? { status: f.status } : {}),
      ...(f.agent !== undefined ? { agent: f.agent } : {}),
      ...(f.limit !== undefined ? { limit: f.limit } : {}),
    };
    return withStore(io, async (store) => {
      // An unknown tournament is an error, not an empty export.
      if (f.tournament !== undefined) await store.tournaments.get(f.tournament);
      const ids = await selectGames(store, selection);
      const file = f.out !== undefined ? await fileSink(f.out) : null;
      const bar = f.progress ? null : progressBar(io, 'export', 'games');
      const summary = await exportGames(store, ids, f.format, file?.sink ?? stdoutSink(io), (done, total, records) => {
        if (f.progress) io.err(`exported ${ids[done - 1]} (${done}/${total}) · ${int(records)} records\n`);
        else bar?.update(done, total);
      }).finally(async () => {
        bar?.end();
        await file?.close();
      });
      for (const g of summary.failed) io.err(`tiltyard: skipped ${g.game_id}: ${g.reason}\n`);
      io.err(`exported ${int(summary.records)} decisions from ${int(summary.games)} games${f.out !== undefined ? ` to ${f.out}` : ''}${summary.failed.length ? `; ${summary.failed.length} skipped` : ''}\n`);
      return summary.failed.length ? EXIT.failure : EXIT.ok;
    });
  },
};
