import { parseArgs } from 'node:util';
import { AGENT_NAMES } from '../../agents/builtin/index.js';
import { EXPERT_SPEC_HELP } from '../../agents/builtin/expert/levels.js';
import { simulate } from '../../runner/simulate.js';
import { DEFAULT_GAMES, GAME_OPTIONS, gameSpec, parseFlags, refuseHumans } from '../flags.js';
import { EXIT } from '../io.js';
import { progressBar } from '../progress.js';
import { formatSummary } from '../summary.js';
import { degradedLine } from '../../runner/degraded.js';
import type { Command } from './command.js';

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'play many seeded games in memory and report balance and throughput',
  usage: `Usage: tiltyard simulate [--games N] [--seed S] [--seats K] [--agents a,b,…] [--rules-file f.json] [--compact] [--json]

Plays N games in memory, one after another, and prints what happened: win rates by seat and by
agent, rounds, card plays by type, manipulation and slip rates, per-agent research figures
(manipulation given and received, slips, tilt resilience; all of them in --json \`research\`),
throughput, and a sha256 over every event (logHash) — the same flags always give the same logHash.
A progress bar on stderr (on a terminal) follows long runs.

  --games N          games to play (default ${DEFAULT_GAMES}); with more agents than seats, rounded up to whole deals
  --seed S           game g (0-based) is played with seed S + g (default 1); with more agents than seats, deal d with S + d
  --seats K          seats per game, 2–6 (default: the number of --agents if ≥ 2, else 4)
  --agents a,b,…     a line-up of agents (built-in names or skill:<folder>); game g seats agent (i + g) mod n in seat i,
                     so each sits in every seat (default: the first K agents below). More agents than seats: each
                     deal (seed) is played at every table of K of them (every combination; a balanced design past
                     210), each table in all K seat rotations, as a round-robin with duplicate seeds — so 5 agents
                     at 4 seats play 5 tables × 4 rotations = 20 games a deal
  --rules-file F     a JSON object of rules overrides (see docs/rules.md)
  --compact          compact windows: one decision per seat per round
  --json             print the result as one JSON object on stdout

LLM agents end the report with their health (decisions first time / repaired / rejected / fell back,
calls, tokens, cost, call latency p50/p95/max). Games in which an LLM seat ran out of its budget are
degraded: they are counted in \`degraded\`, named on stderr, and the exit status is 3.

Agents: ${AGENT_NAMES.join(', ')} (expert's budget: ${EXPERT_SPEC_HELP}), or skill:<folder> for an agent skill
(e.g. skill:skills/python-example; see docs/agents.md)
`,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: [...argv], options: { ...GAME_OPTIONS, games: { type: 'string' } }, strict: true, allowPositionals: false }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    const spec = gameSpec(values);
    refuseHumans(spec.lineup, 'simulate');
    const bar = values.json ? null : progressBar(io, 'simulate', 'game');
    const result = await simulate({ games: spec.games, seed: spec.seed, seats: spec.seats, agents: spec.lineup, rules: spec.rules, onProgress: (d, t) => bar?.update(d, t) });
    bar?.end();
    io.out(values.json ? `${JSON.stringify(result)}\n` : formatSummary(result));
    const [first] = result.degraded;
    if (!first) return EXIT.ok;
    io.err(`tiltyard: ${result.degraded.length} of ${result.games} games degraded (an LLM seat ran out of budget; the engine's fallback played for it), the first: ${degradedLine(`${first.game} (seed ${result.seed + first.game})`, first)}\n`);
    return EXIT.degraded;
  },
};
