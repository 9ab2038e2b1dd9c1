import { parseArgs } from 'node:util';
import { GameId } from '../../protocol/index.js';
import type { EventStore, ThawSelection } from '../../store/index.js';
import { int } from '../format.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError, type CliIo } from '../io.js';
import { withStore } from '../store-session.js';
import type { Command } from './command.js';

const ACTIONS = ['compact', 'thaw'] as const;

export const storeCommand: Command = {
  name: 'store',
  summary: 'maintain the store: `store compact` moves ended games to cold storage, `store thaw` makes them SQL rows for research',
  usage: `Usage: tiltyard store compact [--json]
       tiltyard store thaw (<game>… | --tournament <id> | --all) [--drop] [--json]

compact: moves every ended game's events and actions to cold storage (cold_segments, cold_actions):
brotli-compressed segments of 200 events, one seal per segment in place of a hash per row.
Every read answers as before (events pages, stateAt, verify, replay, reports). One transaction
per game, so it is resumable: stop it (or kill it) at any point and run it again to finish;
a run with nothing left to do succeeds. Progress goes to stderr, one line per game:
  compact <done>/<total> <gameId> <compacted|already|failed>
A game whose hash chain does not verify is not compacted (reported; exit 1).

thaw: writes compacted games' events and actions back as SQL rows (thawed_events, thawed_actions,
with the columns and hashes of events/actions), so SQL reads every game through the views
events_all and actions_all. PostgreSQL cannot read the compressed segments themselves. Thawed rows
cost what a hot game costs (~0.9 MB a game): thaw what a study needs, then --drop them (the cold
data stays). One statement per game: resumable, idempotent. Progress on stderr:
  thaw <done>/<total> <gameId> <thawed|already|hot|missing|failed>
("hot": its rows are still in events/actions, already in the views).

  --tournament <id>  every compacted game of a tournament
  --all              every compacted game
  --drop             drop the thawed rows of the games named instead (with --all: all of them)
  --json             print the totals as one JSON object on stdout
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: {
          json: { type: 'boolean' },
          tournament: { type: 'string' },
          all: { type: 'boolean' },
          drop: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
        strict: true,
        allowPositionals: true,
      }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const [action, ...rest] = positionals;
    if (action === undefined) throw new UsageError('say what to do: tiltyard store compact, or tiltyard store thaw <game>…');
    if (!(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`unknown store action "${action}" (known: ${ACTIONS.join(', ')})`);
    const quiet = { quiet: values.json === true };
    if (action === 'compact') {
      if (rest.length || values.tournament !== undefined || values.all || values.drop)
        throw new UsageError('store compact takes no games or flags but --json: it compacts every ended game still hot');
      return withStore(io, (store) => compact(store, io, values.json === true), quiet);
    }
    const selection = thawSelection(rest, values.tournament, values.all === true);
    return withStore(io, (store) => (values.drop ? drop(store, io, selection, values.json === true) : thaw(store, io, selection, values.json === true)), quiet);
  },
};

/** The games `store thaw` takes: exactly one of game ids, --tournament, --all. */
function thawSelection(ids: readonly string[], tournament: string | undefined, all: boolean): ThawSelection {
  const given = (ids.length > 0 ? 1 : 0) + (tournament !== undefined ? 1 : 0) + (all ? 1 : 0);
  if (given !== 1) throw new UsageError('store thaw: name games, or --tournament <id>, or --all (exactly one of them)');
  if (all) return { all: true };
  if (tournament !== undefined) {
    if (!/^[A-Za-z0-9_.:-]{1,80}$/.test(tournament)) throw new UsageError(`--tournament: expected a tournament id (tiltyard tournaments lists them), got "${tournament}"`);
    return { tournament_id: tournament };
  }
  if (ids.length > 10_000) throw new UsageError(`store thaw: at most 10,000 games at once (got ${int(ids.length)}): use --tournament or --all`);
  for (const id of ids) if (!GameId.safeParse(id).success) throw new UsageError(`store thaw: expected game ids like game_abc123, got "${id}"`);
  return { game_ids: ids };
}

async function compact(store: EventStore, io: CliIo, json: boolean): Promise<number> {
  const r = await store.compactEnded({
    onProgress: (p) => io.err(`compact ${p.done}/${p.total} ${p.game_id} ${p.outcome}\n`),
  });
  for (const f of r.failed) io.err(`tiltyard: ${f.game_id} not compacted: ${f.message}\n`);
  io.out(json ? `${JSON.stringify(r)}\n` : `compacted ${int(r.compacted)} of ${int(r.total)} ended games still hot${r.failed.length ? ` · ${int(r.failed.length)} failed` : ''}\n`);
  return r.failed.length === 0 ? EXIT.ok : EXIT.failure;
}

async function thaw(store: EventStore, io: CliIo, selection: ThawSelection, json: boolean): Promise<number> {
  const missing: string[] = [];
  const r = await store.thaw(selection, {
    onProgress: (p) => {
      if (p.outcome === 'missing') missing.push(p.game_id);
      io.err(`thaw ${p.done}/${p.total} ${p.game_id} ${p.outcome}\n`);
    },
  });
  for (const f of r.failed) io.err(`tiltyard: ${f.game_id} not thawed: ${f.message}\n`);
  for (const id of missing) io.err(`tiltyard: no game ${id} in this store\n`);
  io.out(
    json
      ? `${JSON.stringify({ ...r, missing })}\n`
      : `thawed ${int(r.thawed)} of ${int(r.total)} games${r.failed.length ? ` · ${int(r.failed.length)} failed` : ''}${missing.length ? ` · ${int(missing.length)} not found` : ''}: SELECT … FROM events_all / actions_all\n`,
  );
  return r.failed.length === 0 && missing.length === 0 ? EXIT.ok : EXIT.failure;
}

async function drop(store: EventStore, io: CliIo, selection: ThawSelection, json: boolean): Promise<number> {
  const r = await store.dropThawed(selection);
  io.out(json ? `${JSON.stringify({ dropped: r.games })}\n` : `dropped the thawed rows of ${int(r.games)} games (their cold data stays)\n`);
  return EXIT.ok;
}
