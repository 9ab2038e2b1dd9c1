import { parseArgs } from 'node:util';
import { AGENT_NAMES } from '../../agents/builtin/index.js';
import { playSeated } from '../../runner/simulate.js';
import { GAME_OPTIONS, gameSpec, parseFlags } from '../flags.js';
import { EXIT } from '../io.js';
import { formatTranscript } from '../transcript.js';
import type { Command } from './command.js';

export const playCommand: Command = {
  name: 'play',
  summary: 'play one seeded game and print its transcript (or its event log)',
  usage: `Usage: tiltyard play [--seed S] [--seats K] [--agents a,b,…] [--rules-file f.json] [--compact] [--json]

Plays one game in memory and prints the admin's transcript: secret plans, speech with its
channel and speech act, actions with their attack plans, resolutions, emotions, eliminations and
placements. The game is game 0 of \`tiltyard simulate\` with the same flags.

  --seed S           the game's seed (default 1)
  --seats K          seats, 2–6 (default: the number of --agents if ≥ 2, else 4)
  --agents a,b,…     agents by seat (built-in names or skill:<folder>), repeated to fill the seats (default: the first K)
  --rules-file F     a JSON object of rules overrides (see docs/rules.md)
  --compact          compact windows: one decision per seat per round
  --json             print the full, unredacted event log as NDJSON

Agents: ${AGENT_NAMES.join(', ')}, or skill:<folder> for an agent skill
(e.g. skill:skills/python-example; see docs/agents.md)
`,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: [...argv], options: GAME_OPTIONS, strict: true, allowPositionals: false }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const { run } = await playSeated(gameSpec(values, 1), 0);
    io.out(values.json ? run.events.map((e) => `${JSON.stringify(e)}\n`).join('') : formatTranscript(run.events));
    return EXIT.ok;
  },
};
