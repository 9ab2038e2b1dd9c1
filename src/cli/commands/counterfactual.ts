import { runCounterfactual } from '../../research/counterfactual-run.js';
import { formatCounterfactual } from '../counterfactual-format.js';
import { EXIT } from '../io.js';
import { parseForkArgs, wholeFlag } from '../research-flags.js';
import { withStore } from '../store-session.js';
import type { Command } from './command.js';

const MAX_CONCURRENCY = 16;

export const counterfactualCommand: Command = {
  name: 'counterfactual',
  summary: 'play many forks of a stored game from one decision point and compare their outcomes with the original',
  usage: `Usage: tiltyard counterfactual <gameId> --at <seq|round:N> [--agents a,b,…] [--runs N]
                     [--reseed-from S] [--concurrency K] [--store] [--json]

Plays N forks of a stored game from the first decision point at or after --at (see tiltyard fork):
run k reseeds the undrawn deck and the PRNG from S + k at the fork point (its secret). Reports, beside the original game's
outcome, each seat's placements, mean placement, win rate, survival and lives kept, and who
eliminated whom (the seat that dealt the last blow in the round of the elimination), with 95 %
intervals: Wilson for the shares of runs (win rate, survival, eliminations), percentile bootstrap
for the means. Runs play in memory (nothing stored) unless --store. With
deterministic agents (the built-ins) the same arguments give the same report.

  --at A             where to branch: a seq, or round:N
  --agents a,b,…     the agents after the fork, one per seat (default: the parent's)
  --runs N           forks to play (default 20)
  --reseed-from S    run k is reseeded with S + k (default 1)
  --concurrency K    runs played at once, 1–${MAX_CONCURRENCY} (default 4; helps LLM and skill seats)
  --store            store every run as a fork game (tiltyard verify checks each); its id is in --json
  --json             print the report as one JSON object

Progress goes to stderr, one line per finished run. Exit status: 0 done, 1 the game cannot be
forked there, 2 bad usage.
`,
  async run(argv, io) {
    const parsed = parseForkArgs(argv, {
      runs: { type: 'string' },
      'reseed-from': { type: 'string' },
      concurrency: { type: 'string' },
      store: { type: 'boolean' },
    });
    if (!parsed) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const { target: { parentId, at, agents }, values } = parsed;
    const runs = wholeFlag('runs', values.runs, 1) ?? 20;
    const reseedFrom = wholeFlag('reseed-from', values['reseed-from']) ?? 1;
    const concurrency = Math.min(wholeFlag('concurrency', values.concurrency, 1) ?? 4, MAX_CONCURRENCY);
    return withStore(io, async (store) => {
      const report = await runCounterfactual(store, parentId, {
        at,
        ...(agents ? { agents } : {}),
        runs,
        reseedFrom,
        concurrency,
        store: values.store === true,
        onProgress: (done, total) => io.err(`counterfactual ${parentId}: run ${done}/${total} done\n`),
      });
      io.out(values.json ? `${JSON.stringify(report)}\n` : formatCounterfactual(report));
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};
