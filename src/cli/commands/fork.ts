import { forkGame } from '../../research/fork-game.js';
import { forkOf } from '../../research/fork-lineage.js';
import { INPUT_CLOCKS } from '../../runner/input-clock.js';
import { resumePersistent } from '../../runner/persistent-runner.js';
import { clockFlag, gameIdFlag } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { formatOutcome, outcomeJson } from '../outcome-format.js';
import { parseForkArgs, wholeFlag } from '../research-flags.js';
import { progressOption, withStore } from '../store-session.js';
import type { Command } from './command.js';

export const forkCommand: Command = {
  name: 'fork',
  summary: 'branch a stored game at a decision point and play the branch on with the same or other agents',
  usage: `Usage: tiltyard fork <gameId> --at <seq|round:N> [--agents a,b,…] [--reseed S | --same-deck]
                     [--game-id ID] [--clock wall|logical] [--progress] [--json]

Creates a new stored game that shares the parent's log up to the first decision point at or after
--at (re-simulated from the seed and checked event by event against the parent: the same bytes,
its game id aside, so it chains to the parent's hash there), reseeds there everything no seat has
seen — the undrawn deck is shuffled again and the PRNG replaced, from a fresh secret — then plays
it on to the end and stores it step by step like \`tiltyard run\`. The parent's seed, public once it
has ended, tells nothing of the fork's draws; the secret is shown like a seed: to admins, and to
everyone once the fork has ended. The fork records its parent, fork point and secret (see
\`tiltyard games\`, GET /games/:id: options.fork); \`tiltyard verify\` checks its prefix against the
parent and re-simulates the rest. A fork that is interrupted continues with \`tiltyard resume\`.

  --at A             where to branch: a seq, or round:N (the first decision of round N)
  --agents a,b,…     the agents after the fork, one per seat (default: the parent's). Built-ins are
                     first walked through the prefix, so they remember the game so far
  --reseed S         reseed from S instead of a fresh secret (reproducible research; S is as
                     secret as a fresh one: pick one nobody can guess if anyone watches)
  --same-deck        keep the parent's deck and PRNG: the same agents replay it exactly. Anyone
                     who knows the parent's seed knows its draws, so the server shows such a fork
                     to admins only until it ends
  --game-id ID       store the fork under this id (default: a fresh one)
  --clock C          timestamps of the new inputs: wall (default) or logical (continues a logical
                     parent exactly: same agents and --same-deck ⇒ the parent's log again)
  --progress         print "stored <gameId> seq <N>" on stderr after every stored step
  --json             print {gameId, events, placements, status, fork}

Exit status: 0 played to the end, 1 the parent cannot be forked (unknown, diverges, no decision
at --at, wrong number of agents), 2 bad usage.
`,
  async run(argv, io) {
    const parsed = parseForkArgs(argv, {
      reseed: { type: 'string' },
      'same-deck': { type: 'boolean' },
      'game-id': { type: 'string' },
      clock: { type: 'string' },
      progress: { type: 'boolean' },
    });
    if (!parsed) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const { target: { parentId, at, agents }, values } = parsed;
    const reseed = wholeFlag('reseed', values.reseed);
    const sameDeck = values['same-deck'] === true;
    if (sameDeck && reseed !== undefined) throw new UsageError('--same-deck and --reseed exclude each other: a fork keeps the deck or reseeds it');
    const gameId = gameIdFlag(values['game-id'] as string | undefined);
    const clock = INPUT_CLOCKS[clockFlag(values['clock'] as string | undefined)];
    return withStore(io, async (store) => {
      const started = performance.now();
      const fork = await forkGame(store, parentId, { at, ...(agents ? { agents } : {}), ...(reseed !== undefined ? { reseed } : {}), ...(sameDeck ? { sameDeck } : {}), ...(gameId ? { gameId } : {}) });
      const lineage = forkOf(fork)!;
      const { end, ...progress } = progressOption(io, values['progress'] === true, values['json'] === true);
      const outcome = await resumePersistent(store, fork.game_id, { clock, ...progress }).finally(end);
      if (values.json) {
        io.out(`${JSON.stringify({ ...outcomeJson(outcome), fork: lineage })}\n`);
      } else {
        const draws = sameDeck ? ', keeping its deck' : reseed !== undefined ? `, reseeded with ${reseed}` : ', reseeded from a fresh secret';
        io.out(`Forked ${parentId} at seq ${lineage.seq}${draws}\n`);
        io.out(await formatOutcome(store, outcome, performance.now() - started));
      }
      return outcome.status === 'ended' ? EXIT.ok : EXIT.failure;
    }, { quiet: values.json === true });
  },
};
