import { parseArgs } from 'node:util';
import { CHECKS, type Finding } from '../../check/finding.js';
import type { AgentCheckReport, Assertion } from '../../check/report.js';
import { checkAgent } from '../../check/run-check.js';
import { pct } from '../format.js';
import { parseFlags } from '../flags.js';
import { EXIT, UsageError } from '../io.js';
import { liveLine } from '../progress.js';
import type { Command } from './command.js';
import { runLlmCheck, LLM_CHECK_HELP } from '../llm-check-command.js';
import { DEFAULT_MAX_CALLS } from '../../check/llm-check.js';

const DEFAULT_GAMES = 2;
const MAX_GAMES = 50;
/** An llm: check asks a handful of requests; more calls than this is no longer a check. */
const MAX_CALLS = 100;

const MARK: Record<Assertion['status'], string> = { pass: '✓', fail: '✗', skip: '–' };

function whole(flag: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim()))
    throw new UsageError(`${flag}: must be a whole number ≥ 0, got "${value}"`);
  const n = Number(value);
  if (n > max) throw new UsageError(`${flag}: must be at most ${max}, got ${n}`);
  return n;
}

function formatFinding(f: Finding): string[] {
  const where = f.window ? ` [${f.window}]` : '';
  return [
    `  ${f.severity === 'error' ? '✗ error  ' : '! warning'} ${f.check}${where}: ${f.message}`,
    `              hint: ${f.hint}`,
  ];
}

function formatReport(r: AgentCheckReport): string {
  const s = r.skill;
  const head =
    'name' in s
      ? `agent-check ${s.name} (${s.kind}: ${s.runs} · deadline ${s.timeout_ms} ms · fallback ${s.fallback})`
      : `agent-check ${s.dir}`;
  const width = Math.max(...r.assertions.map((a) => a.name.length));
  const lines = [
    head,
    '',
    ...r.assertions.map((a) => `  ${MARK[a.status]} ${a.name.padEnd(width)}  ${a.details}`),
  ];
  const g = r.figures.games;
  if (g && g.games > 0) {
    const lat = g.latency_ms
      ? ` · latency p50 ${g.latency_ms.p50} ms, max ${g.latency_ms.max} ms`
      : '';
    lines.push(
      '',
      `games: ${g.games} (seeds ${g.seeds.join(', ')}; ${g.windows.join(' + ')} windows) · ${g.decisions} decisions · ${pct(g.legal_rate)} legal · passed in ${pct(g.pass_rate)} of action windows · ${g.failures} failures${lat}`,
    );
  }
  if (r.findings.length) lines.push('', 'findings:', ...r.findings.flatMap(formatFinding));
  lines.push(
    '',
    `${r.ok ? 'ok' : 'FAILED'}: ${r.errors} error${r.errors === 1 ? '' : 's'}, ${r.warnings} warning${r.warnings === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}

export const agentCheckCommand: Command = {
  name: 'agent-check',
  summary: 'check an agent skill against the tool protocol, every decision window and real games',
  usage: `Usage: tiltyard agent-check <skill-dir> [--games N] [--seed S] [--json]
       tiltyard agent-check llm:<provider>[:<model>] [--max-calls N] [--seed S] [--json]

A conformance kit for agent authors. Loads the skill folder, then runs it on real requests taken
from games of built-in agents: one per decision window (intent, talk, action, reaction, reflect,
and a compact-window action), then the edge cases — a reprompt after a rejected answer, a request
with unknown extra fields, its own memory handed back, and the same request twice. Each answer
goes through the runtime and the engine exactly as in play. Then it plays N full games against
built-ins. Checks:
${Object.entries(CHECKS)
  .map(([name, what]) => `  ${name.padEnd(15)} ${what}`)
  .join('\n')}
Every finding says how to fix it. Exit code 0 when there is no error (warnings allowed), 1 when
there is one, 2 for a bad command line.

  --games N          full games against built-ins, odd ones with compact windows (default ${DEFAULT_GAMES})
  --seed S           requests come from games seeded S, S+1…; game g is played with seed S + g (default 1)
  --json             print the report as one JSON object (scenario, skill, assertions, findings, figures)

${LLM_CHECK_HELP}
See docs/agents.md for the protocol, the answer of each window and how to write a skill, and
docs/providers.md for LLM seats.
`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(() =>
      parseArgs({
        args: [...argv],
        options: {
          games: { type: 'string' },
          seed: { type: 'string' },
          'max-calls': { type: 'string' },
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
    if (positionals.length !== 1)
      throw new UsageError(
        `expected one skill folder (e.g. tiltyard agent-check skills/python-example), got ${positionals.length} arguments`,
      );
    const seed = whole('--seed', values.seed, 1, Number.MAX_SAFE_INTEGER - MAX_GAMES);
    const dir = positionals[0]!;
    if (dir.startsWith('llm:')) {
      if (values.games !== undefined) throw new UsageError('--games plays full games with a skill; an llm: check takes --max-calls');
      const maxCalls = whole('--max-calls', values['max-calls'], DEFAULT_MAX_CALLS, MAX_CALLS);
      if (maxCalls < 1) throw new UsageError('--max-calls: must be at least 1');
      return runLlmCheck(dir, { seed, maxCalls, json: values.json === true }, io);
    }
    if (values['max-calls'] !== undefined) throw new UsageError('--max-calls is for llm:<provider>:<model> checks');
    const games = whole('--games', values.games, DEFAULT_GAMES, MAX_GAMES);
    const line = values.json ? null : liveLine(io, `agent-check ${dir}: loading the skill`);
    const report = await checkAgent(dir, {
      games,
      seed,
      onStage: (stage) =>
        line?.set(
          stage === 'cases'
            ? `agent-check ${dir}: 1/2 one request per decision window, then the edge cases`
            : `agent-check ${dir}: 2/2 ${games} full game${games === 1 ? '' : 's'} against built-ins`,
        ),
    }).finally(() => line?.end());
    io.out(values.json ? `${JSON.stringify(report)}\n` : formatReport(report));
    return report.ok ? EXIT.ok : EXIT.failure;
  },
};
