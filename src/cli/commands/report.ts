import { parseArgs } from 'node:util';
import { z } from 'zod';
import { REPORT_TABLES, reportToCsv } from '../../tournament/report-csv.js';
import { TournamentNotFoundError, type EventStore } from '../../store/index.js';
import { endedGames, storedReport } from '../../tournament/stored-report.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { formatReport } from '../report-format.js';
import { storeLocation, withStore } from '../store-session.js';
import type { Command } from './command.js';

const tables = `${REPORT_TABLES.slice(0, -1).join(', ')} or ${REPORT_TABLES.at(-1)}`;

/** The flags after parseArgs: one output form, and a table only with --csv. */
const ReportFlags = z
  .object({
    json: z.boolean().default(false),
    csv: z.boolean().default(false),
    table: z.enum(REPORT_TABLES, { error: (issue) => `--table: must be ${tables}, got "${String(issue.input)}"` }).optional(),
  })
  .refine((f) => !(f.json && f.csv), { error: '--json and --csv exclude each other' })
  .refine((f) => f.table === undefined || f.csv, { error: '--table goes with --csv (the text and --json show every table)' });

/** The tournament, or null when the store has none with that id (any other failure propagates). */
async function tournamentOrNull(store: EventStore, id: string) {
  try {
    return await store.tournaments.get(id);
  } catch (e) {
    if (e instanceof TournamentNotFoundError) return null;
    throw e;
  }
}

export const reportCommand: Command = {
  name: 'report',
  summary: "print a tournament's research report (manipulation, tilt resilience, emotion → choice, WPA)",
  usage: `Usage: tiltyard report <tournament id> [--json | --csv [--table T]]

Prints the research report of a tournament's ended games — the one GET /tournaments/:id/report
serves — as text: per agent its results, manipulations given and received, slips, forced errors,
prediction accuracy and promises kept; tilt resilience (mean placement when manipulated vs
otherwise, with the games behind each and the delta's 95 % interval); the emotion → choice shifts
(how a successful manipulation with each emotional intent moves its target's attack and defensive
share the round after, pooled and per target agent, with 95 % intervals resampling whole duplicate
groups; cells under 20 samples or 10 groups marked "few"); the win probability each agent's decisions
added (mean WPA per decision, overall and per window, intervals over whole duplicate groups); who
manipulated whom; LLM use.
Every ended game in the store is folded (the server hides a duplicate set still being played from
researchers; this command reads your own store).

  --json             print the whole report as one JSON object {tournament_id, status, games_counted, report}
  --csv              print one table as CSV (default agents; see --table)
  --table T          with --csv: ${tables}

docs/tournaments.md explains every figure.
`,
  async run(argv, io) {
    const options = { json: { type: 'boolean' }, csv: { type: 'boolean' }, table: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
    const { values, positionals } = parseFlags(() => parseArgs({ args: [...argv], options, strict: true, allowPositionals: true }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const flags = ReportFlags.safeParse({ json: values.json, csv: values.csv, table: values.table });
    if (!flags.success) throw new UsageError(flags.error.issues[0]?.message ?? 'invalid flags');
    if (positionals.length !== 1) throw new UsageError(`expected one tournament id (tiltyard tournaments lists them), got ${positionals.length} arguments`);
    const id = positionals[0]!;
    const { json, csv, table } = flags.data;
    return withStore(
      io,
      async (store) => {
        const t = await tournamentOrNull(store, id);
        if (!t) {
          io.err(`tiltyard: no tournament ${id} in ${storeLocation()} (tiltyard tournaments lists them)\n`);
          return EXIT.failure;
        }
        const view = await storedReport(store, t, await endedGames(store, id));
        if (json) io.out(`${JSON.stringify(view)}\n`);
        else if (csv) io.out(reportToCsv(view.report)[`${table ?? 'agents'}.csv`]);
        else io.out(formatReport(view));
        return EXIT.ok;
      },
      { quiet: json || csv },
    );
  },
};
