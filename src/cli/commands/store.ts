import { parseArgs } from 'node:util';
import { int } from '../format.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { withStore } from '../store-session.js';
import type { Command } from './command.js';

export const storeCommand: Command = {
  name: 'store',
  summary: 'maintain the store: `store compact` moves ended games to compressed cold storage',
  usage: `Usage: tiltyard store compact [--json]

Moves every ended game's events and actions to cold storage (cold_segments, cold_actions):
brotli-compressed segments of 200 events, one seal per segment in place of a hash per row.
Every read answers as before (events pages, stateAt, verify, replay, reports). One transaction
per game, so it is resumable: stop it (or kill it) at any point and run it again to finish;
a run with nothing left to do succeeds. Progress goes to stderr, one line per game:
  compact <done>/<total> <gameId> <compacted|already|failed>
A game whose hash chain does not verify is not compacted (reported; exit 1).

  --json             print the totals as one JSON object on stdout
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
        strict: true,
        allowPositionals: true,
      }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    if (positionals.length !== 1 || positionals[0] !== 'compact')
      throw new UsageError(positionals.length === 0 ? 'say what to do: tiltyard store compact' : `unknown store action "${positionals.join(' ')}" (known: compact)`);
    return withStore(io, async (store) => {
      const r = await store.compactEnded({
        onProgress: (p) => io.err(`compact ${p.done}/${p.total} ${p.game_id} ${p.outcome}\n`),
      });
      for (const f of r.failed) io.err(`tiltyard: ${f.game_id} not compacted: ${f.message}\n`);
      io.out(values.json ? `${JSON.stringify(r)}\n` : `compacted ${int(r.compacted)} of ${int(r.total)} ended games still hot${r.failed.length ? ` · ${int(r.failed.length)} failed` : ''}\n`);
      return r.failed.length === 0 ? EXIT.ok : EXIT.failure;
    }, { quiet: values.json === true });
  },
};
