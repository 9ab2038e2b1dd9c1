import { parseArgs } from 'node:util';
import { AGENT_NAMES } from '../../agents/builtin/index.js';
import { EXPERT_SPEC_HELP } from '../../agents/builtin/expert/levels.js';
import { INPUT_CLOCKS } from '../../runner/input-clock.js';
import { seatAgents } from '../../runner/lineup.js';
import { runPersistent } from '../../runner/persistent-runner.js';
import { clockFlag, GAME_OPTIONS, gameIdFlag, gameSpec, parseFlags, spectatorFlags, refuseHumans } from '../flags.js';
import { EXIT } from '../io.js';
import { formatOutcome, outcomeJson } from '../outcome-format.js';
import { progressOption, withStore } from '../store-session.js';
import { PREFLIGHT_HELP, PREFLIGHT_OPTION, preflightOrRefuse } from '../preflight-flag.js';
import { storedSeatSummaries } from '../../runner/seat-summary.js';
import { formatSeatSummaries } from '../seat-summary-format.js';
import { degradedLine } from '../../runner/degraded.js';
import type { Command } from './command.js';

export const runCommand: Command = {
  name: 'run',
  summary: 'play one game with its agents and store it step by step (crash-safe)',
  usage: `Usage: tiltyard run [--seed S] [--seats K] [--agents a,b,…] [--rules-file f.json] [--compact]
                    [--game-id ID] [--clock wall|logical] [--spectators public|broadcast]
                    [--broadcast-unsafe hold|refuse] [--progress] [--json]

Plays one game and stores it as it goes: each engine step (its events, and the agent decision that
caused it) is one atomic append. A run that is killed loses nothing: \`tiltyard resume\` continues
from the last stored step. The game is \`tiltyard play\` with the same flags (ids and times aside).
Games live in the embedded database in $TILTYARD_DATA_DIR (default ./data), or in PostgreSQL when
DATABASE_URL is set.

  --seed S           the game's seed (default 1)
  --seats K          seats, 2–6 (default: the number of --agents if ≥ 2, else 4)
  --agents a,b,…     agents by seat (built-in names or skill:<folder>), repeated to fill the seats (default: the first K)
  --rules-file F     a JSON object of rules overrides (see docs/rules.md)
  --compact          compact windows: one decision per seat per round
  --game-id ID       store the game under this id (default: a fresh one); if that game exists
                     with the same seed and line-up, it is resumed
  --clock C          event timestamps: wall (default, real time) or logical (${INPUT_CLOCKS.logical(null)}
                     plus 1 ms per input), which makes the whole log reproducible byte for byte
  --spectators M     what a server sharing the store shows anonymous viewers of this game: public
                     (default: the public table) or broadcast (every seat, at least a round behind;
                     see docs/security.md)
  --broadcast-unsafe hold (default) holds a broadcast until the game's end when a seat could act
                     on it (network skill, no sandbox, an unconfigured LLM endpoint); refuse stops
  --progress         print "stored <gameId> seq <N>" on stderr after every stored step
  --json             print {gameId, events, placements, status, seats, degraded} as one JSON object
                     (seats: each seat's health, see docs/providers.md "Seat health"; degraded:
                     null, or the seat, round and cause)
${PREFLIGHT_HELP}

A game whose LLM seat's provider fails every call for \`outage_decisions\` decisions in a row
(default 5; see docs/providers.md) is stopped as failed, with the cause, and the exit status is 1.
A game in which an LLM seat ran out of its per-game or per-decision budget is played to its end but
stored as degraded (the engine's fallback played for that seat): it is named on stderr and the exit
status is 3 (docs/providers.md "Degraded games and exit codes").

Agents: ${AGENT_NAMES.join(', ')} (expert's budget: ${EXPERT_SPEC_HELP}), or skill:<folder> for an agent skill
(e.g. skill:skills/python-example; see docs/agents.md)
`,
  async run(argv, io) {
    const options = {
      ...GAME_OPTIONS,
      'game-id': { type: 'string' },
      clock: { type: 'string' },
      spectators: { type: 'string' },
      'broadcast-unsafe': { type: 'string' },
      progress: { type: 'boolean' },
      ...PREFLIGHT_OPTION,
    } as const;
    const { values } = parseFlags(() =>
      parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }),
    );
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const spec = gameSpec(values, 1);
    refuseHumans(spec.lineup, 'run');
    const clock = INPUT_CLOCKS[clockFlag(values.clock)];
    const gameId = gameIdFlag(values['game-id']);
    const agents = seatAgents(spec.lineup, spec.seats, 0);
    await preflightOrRefuse(agents, values['no-preflight']);
    const shown = spectatorFlags(values, agents);
    return withStore(io, async (store) => {
      const started = performance.now();
      const { end, ...progress } = progressOption(io, values.progress, values.json);
      const outcome = await runPersistent(
        store,
        { seed: spec.seed, agents, rules: spec.rules, ...(gameId ? { gameId } : {}), ...(Object.keys(shown).length ? { options: shown } : {}) },
        { clock, ...progress },
      ).finally(end);
      const wallMs = performance.now() - started;
      const seats = await storedSeatSummaries(store, outcome.gameId);
      if (values.json) io.out(`${JSON.stringify({ ...outcomeJson(outcome), seats, degraded: outcome.degraded })}\n`);
      else io.out(`${await formatOutcome(store, outcome, wallMs)}${formatSeatSummaries(seats)}`);
      if (outcome.status === 'superseded')
        io.err(
          `tiltyard: game ${outcome.gameId}: another runner is writing it; this one stopped at seq ${outcome.lastSeq}\n`,
        );
      if (outcome.degraded) {
        io.err(`tiltyard: ${degradedLine(outcome.gameId, outcome.degraded)}\n`);
        return EXIT.degraded;
      }
      return EXIT.ok;
    }, { quiet: values.json === true });
  },
};
