import { plannedGames } from '../../tournament/plan.js';
import { parseArgs } from 'node:util';
import { table } from '../format.js';
import { parseFlags } from '../flags.js';
import { EXIT } from '../io.js';
import { storeLocation, withStore } from '../store-session.js';
import type { Command } from './command.js';

export const tournamentsCommand: Command = {
  name: 'tournaments',
  summary: 'list the stored tournaments',
  usage: `Usage: tiltyard tournaments [--json]

Lists the tournaments in the store, newest first: id, format, status (created, running, ended,
aborted, stopped, stopped_by_budget), entrants and seats, games ended of those planned, failed,
stopped (started and left unfinished: cut by the cost cap or interrupted; not rated), and when it
was created. A tournament still "running" with no process playing it was interrupted, a "stopped"
one stopped because the database's disk filled up (free space first), a "stopped_by_budget" one at
its cost limit: \`tiltyard tournament resume <id>\` continues each.

  --json             print one JSON array of {tournament_id, format, status, entrants, seats, progress: {games, ended, failed, pending, planned, stopped}, created_at}
`,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: [...argv], options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    return withStore(io, async (store) => {
      const list = (await store.tournaments.list({ limit: 1000 })).map((t) => ({
        tournament_id: t.tournament_id,
        format: String(t.config['format']),
        status: t.status,
        entrants: (t.config['entrants'] as string[]) ?? [],
        seats: Number(t.config['seats']),
        progress: { ...t.progress, planned: plannedGames(t.config), stopped: t.status === 'running' ? 0 : t.progress.pending },
        created_at: t.created_at,
      }));
      if (values.json) io.out(`${JSON.stringify(list)}\n`);
      else if (list.length === 0) io.out(`No tournaments (${storeLocation()}).\n`);
      else {
        // Ended of planned (not of created: a tournament its cap stopped never created the rest).
        const rows = [['tournament', 'format', 'status', 'entrants', 'seats', 'games', 'failed', 'stopped', 'created'], ...list.map((t) => [t.tournament_id, t.format, t.status, String(t.entrants.length), String(t.seats), `${t.progress.ended}/${t.progress.planned ?? t.progress.games}`, String(t.progress.failed), String(t.progress.stopped), t.created_at])];
        io.out(`${table(rows, 3).join('\n')}\n`);
      }
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};
