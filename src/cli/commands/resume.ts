import { parseArgs } from 'node:util';
import { INPUT_CLOCKS } from '../../runner/input-clock.js';
import { resumePersistent, type RunOutcome } from '../../runner/persistent-runner.js';
import type { EventStore } from '../../store/index.js';
import { clockFlag, gameIdArg, parseFlags } from '../flags.js';
import { EXIT } from '../io.js';
import { formatOutcome, outcomeJson } from '../outcome-format.js';
import { progressOption, reportFailure, storeLocation, withStore } from '../store-session.js';
import type { Command } from './command.js';

/** The games no runner finished (created or running), oldest first. */
async function unfinished(store: EventStore): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listGames(
      { status: ['created', 'running'] },
      { limit: 500, ...(cursor ? { cursor } : {}) },
    );
    ids.push(...page.games.map((g) => g.game_id));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return ids.reverse();
}

export const resumeCommand: Command = {
  name: 'resume',
  summary: 'continue stored games whose runner stopped (crashed, killed) before the end',
  usage: `Usage: tiltyard resume [gameId] [--clock wall|logical] [--progress] [--json]

Continues one game, or every unfinished one, from its last stored step. The agents are rebuilt
first: the game is replayed from its seed, each agent is asked again at every decision it made,
and its answer must equal the recorded one (otherwise the game has diverged: exit 1, nothing
written). If another runner is still writing a game, this one stops as soon as it notices.

  --clock C          timestamps of the new inputs: wall (default) or logical (continues a
                     \`run --clock logical\` game exactly as an uninterrupted run would)
  --progress         print "stored <gameId> seq <N>" on stderr after every stored step
  --json             print one JSON array of {gameId, events, placements, status, resumedFrom}
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: {
          clock: { type: 'string' },
          progress: { type: 'boolean' },
          json: { type: 'boolean' },
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
    const clock = INPUT_CLOCKS[clockFlag(values.clock)];
    const only = gameIdArg(positionals, true);
    return withStore(io, async (store) => {
      const ids = only ? [only] : await unfinished(store);
      const outcomes: RunOutcome[] = [];
      let failed = 0;
      for (const id of ids) {
        const started = performance.now();
        try {
          const { end, ...progress } = progressOption(io, values.progress, values.json);
          const outcome = await resumePersistent(store, id, { clock, ...progress }).finally(end);
          outcomes.push(outcome);
          if (!values.json)
            io.out(await formatOutcome(store, outcome, performance.now() - started));
        } catch (e) {
          // One game failing (diverged, corrupt) does not keep the others from being resumed.
          if (only) throw e;
          failed++;
          reportFailure(io, e, `game ${id}: `);
        }
      }
      if (values.json) io.out(`${JSON.stringify(outcomes.map(outcomeJson))}\n`);
      else if (ids.length === 0) io.out(`No unfinished games (${storeLocation()}).\n`);
      return failed ? EXIT.failure : EXIT.ok;
    }, { quiet: values.json === true });
  },
};
