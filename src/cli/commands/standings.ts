import { parseArgs } from 'node:util';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { formatStandings, standingsCsv } from '../standings-format.js';
import { withStore } from '../store-session.js';
import type { Command } from './command.js';

export const standingsCommand: Command = {
  name: 'standings',
  summary: "print a tournament's standings (ratings with 95 % intervals)",
  usage: `Usage: tiltyard standings <tournament id> [--json | --csv]

Prints a tournament's standings as last stored (recomputed from all its results after every batch
and at its end): rank, agent, ordinal (μ − 3σ, the ranking key), μ, σ, games, wins, and 95 %
bootstrap intervals of the win rate and of the mean placement.

  --json             print one JSON object {tournament_id, status, standings}
  --csv              print CSV (a header line, then one line per agent, full precision)
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({ args: [...argv], options: { json: { type: 'boolean' }, csv: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    if (values.json && values.csv) throw new UsageError('--json and --csv exclude each other');
    if (positionals.length !== 1) throw new UsageError(`expected one tournament id (tiltyard tournaments lists them), got ${positionals.length} arguments`);
    const id = positionals[0]!;
    return withStore(io, async (store) => {
      const t = await store.tournaments.get(id);
      const standings = (await store.tournaments.ratings(id)).map((r) => r.standing);
      if (values.json) io.out(`${JSON.stringify({ tournament_id: id, status: t.status, standings })}\n`);
      else if (values.csv) io.out(standingsCsv(standings));
      else io.out(`Tournament ${id}: ${t.status}, ${t.progress.ended} games${t.progress.failed ? `, ${t.progress.failed} failed` : ''}\n\n${formatStandings(standings)}`);
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};
