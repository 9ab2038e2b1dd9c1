import { parseArgs } from 'node:util';
import { AGENT_NAMES } from '../../agents/builtin/index.js';
import { EXPERT_SPEC_HELP } from '../../agents/builtin/expert/levels.js';
import type { SeatDecision } from '../../agents/seat/types.js';
import { ProviderDownError } from '../../runner/provider-down.js';
import { seatAgents } from '../../runner/lineup.js';
import { playSeated } from '../../runner/simulate.js';
import { reportFailure } from '../store-session.js';
import { GAME_OPTIONS, gameSpec, parseFlags } from '../flags.js';
import { EXIT } from '../io.js';
import { formatTranscript } from '../transcript.js';
import { formatSeatSummaries } from '../seat-summary-format.js';
import { degradedLine } from '../../runner/degraded.js';
import { seatSummaries } from '../../runner/seat-summary.js';
import { seatTally } from '../../runner/seat-tally.js';
import { PREFLIGHT_HELP, PREFLIGHT_OPTION, preflightOrRefuse } from '../preflight-flag.js';
import type { Command } from './command.js';
import { playAtTerminal } from '../play-terminal.js';
import { humanSeatIds } from '../../agents/seat/agent-spec.js';

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

With a human seat (--agents human,balanced,… or human:<name>), you play that seat at this
terminal: before each of your decisions you see your hand (with what each card does), your
feelings, the table and what you were told; each choice is a numbered menu, pre-filled with a
legal one (Enter takes it); a line of speech is typed (Enter keeps the default). The story is
told as it happens, from your seat only. One human seat per terminal; stdin must be a terminal.

LLM seats end the transcript with their health: decisions first time / repaired / rejected / fell
back, calls, tokens, cost, call latency p50/p95/max. A seat that ran out of its budget degrades the game
(the engine's fallback played for it): it is named on stderr and the exit status is 3.
${PREFLIGHT_HELP}

Agents: ${AGENT_NAMES.join(', ')} (expert's budget: ${EXPERT_SPEC_HELP}), or skill:<folder> for an agent skill
(e.g. skill:skills/python-example; see docs/agents.md)
`,
  async run(argv, io) {
    const { values } = parseFlags(() => parseArgs({ args: [...argv], options: { ...GAME_OPTIONS, ...PREFLIGHT_OPTION }, strict: true, allowPositionals: false }));
    if (values.help) {
      io.out(this.usage);
      return EXIT.ok;
    }
    // Why each missing answer is missing, per seat and window, in order: the transcript says it.
    const causes = new Map<string, string[]>();
    const tally = seatTally();
    const onDecision = (seat: number, answer: SeatDecision) => {
      tally.onDecision(seat, answer);
      const t = answer.trace;
      if (answer.decision !== undefined || !t) return;
      const key = `${t.player_id}/${t.window}`;
      causes.set(key, [...(causes.get(key) ?? []), t.failure ? `${t.failure.code}: ${t.failure.message}` : 'no answer']);
    };
    const spec = gameSpec(values, 1);
    const lineup = seatAgents(spec.lineup, spec.seats, 0);
    const humans = humanSeatIds(lineup);
    if (humans.length) return playAtTerminal(spec, humans, values.json === true, io);
    await preflightOrRefuse(lineup, values['no-preflight']);
    let run, agents;
    try {
      ({ run, agents } = await playSeated(spec, 0, { onDecision }));
    } catch (e) {
      if (e instanceof ProviderDownError) return reportFailure(io, e);
      throw e;
    }
    const noAnswerCause = (player: string, window: string) => causes.get(`${player}/${window}`)?.shift() ?? null;
    // The seats' health ends the transcript (LLM seats: what they cost and how they answered);
    // --json keeps stdout the event log alone.
    const seats = formatSeatSummaries(seatSummaries(agents.map((agent, i) => ({ player_id: `plr_${i + 1}`, agent })), tally.traces, tally.calls));
    io.out(values.json ? run.events.map((e) => `${JSON.stringify(e)}\n`).join('') : `${formatTranscript(run.events, { noAnswerCause })}${seats ? `\n${seats}` : ''}`);
    const degraded = tally.degraded();
    if (!degraded) return EXIT.ok;
    io.err(`tiltyard: ${degradedLine(run.state.game_id, degraded)}\n`);
    return EXIT.degraded;
  },
};
