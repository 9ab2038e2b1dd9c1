import { loadSkill, type Skill } from '../agents/skills/load-skill.js';
import type { AgentSpec } from '../agents/seat/agent-spec.js';
import { runConformance, deadlineOf } from './conformance.js';
import { determinismCheck } from './determinism-check.js';
import { NOT_RUN } from './edge-case.js';
import { CHECK_NAMES, raw, type CheckName, type CheckRun } from './finding.js';
import { forwardCompatCheck } from './forward-compat-check.js';
import { gamesCheck } from './games-check.js';
import { playGames, type GamesFigures } from './games.js';
import { loadHint } from './hints.js';
import { MIB, sandboxDecision, sandboxSettings } from '../agents/sandbox/index.js';
import { containmentRefusal, probeContainment } from './containment-check.js';
import { traceContainment } from './containment-trace.js';
import { INVOCATION_CHECKS } from './invocation-checks.js';
import { schemaIssues } from './schema-check.js';
import type { CaseName, Invocation } from './invocation.js';
import { memoryCheck } from './memory-check.js';
import { repromptCheck } from './reprompt-check.js';
import {
  assertionsOf,
  caseFigure,
  mergeFindings,
  type AgentCheckReport,
  type SkillSummary,
} from './report.js';
import { collectSamples } from './samples.js';

export type CheckOptions = {
  /** Full games to play against built-ins (default 2). */
  games?: number;
  /** Requests are taken from games from this seed on; game g is played with seed + g (default 1). */
  seed?: number;
  /** Environment for `${ENV}` in the skill's config (default process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Told what is being done, for a progress line. */
  onStage?: (stage: 'cases' | 'games') => void;
};

const WINDOW_CASES: ReadonlySet<CaseName> = new Set([
  'intent',
  'talk',
  'action',
  'reaction',
  'reflect',
  'compact',
]);

function summary(skill: Skill): SkillSummary {
  const runs =
    skill.kind === 'builtin'
      ? `builtin ${skill.builtin}`
      : skill.kind === 'command'
        ? (skill.metadata['command'] ?? '')
        : `plan of ${skill.plan?.tools.length ?? 0} tools`;
  return {
    name: skill.name,
    dir: skill.dir,
    kind: skill.kind,
    runs,
    timeout_ms: deadlineOf(skill),
    fallback: skill.fallback,
  };
}

/**
 * The conformance kit behind `tiltyard agent-check`: loads a skill, puts it through every decision
 * window with real requests (and the edge cases), plays a few games against built-ins, and reports
 * each check as pass, fail or skip with findings that say how to fix what failed.
 *
 * @example
 * const report = await checkAgent('skills/python-example', { games: 2 });
 * report.ok; report.findings; // [{ check: 'stderr', severity: 'warning', window: 'talk', … }]
 */
export async function checkAgent(
  dir: string,
  options: CheckOptions = {},
): Promise<AgentCheckReport> {
  const start_ts = new Date().toISOString();
  const seed = options.seed ?? 1;
  const loaded = loadSkill(
    dir.startsWith('skill:') ? dir.slice('skill:'.length) : dir,
    options.env,
  );
  const runs = new Map<CheckName, CheckRun>();
  if (!loaded.ok) {
    runs.set('load', {
      check: 'load',
      findings: [raw('load', 'error', 'load', loaded.message, loadHint(loaded.message))],
      skipped: null,
    });
    return finish({
      skill: { dir: loaded.dir },
      start_ts,
      runs,
      cases: [],
      games: null,
      passDetails: {},
    });
  }
  const skill = loaded.skill;
  runs.set('load', { check: 'load', findings: [], skipped: null });
  const processes = skill.kind === 'command' || skill.kind === 'plan';
  // Refused here as a seat would be: one error, and nothing else run (each case would only fail the same way).
  const refused = processes ? containmentRefusal(skill) : null;
  if (refused) {
    runs.set('containment', refused);
    for (const name of CHECK_NAMES) if (!runs.has(name)) runs.set(name, { check: name, findings: [], skipped: 'not run: the sandbox refuses this agent here (see containment)' });
    return finish({ skill: summary(skill), start_ts, runs, cases: [], games: null, passDetails: {} });
  }
  const agent: AgentSpec & { kind: 'skill' } = { kind: 'skill', spec: `skill:${skill.dir}`, skill };

  options.onStage?.('cases');
  const samples = collectSamples(seed);
  const { cases } = await runConformance(agent, samples, { gameSeed: seed });
  const byCase = (c: CaseName): Invocation | null =>
    cases.find((x) => x.case === c)?.invocation ?? null;
  const windows = cases.filter((c) => WINDOW_CASES.has(c.case));
  const ran = windows.flatMap((c) => (c.invocation ? [c.invocation] : []));
  const notRun = windows.filter((c) => !c.invocation).map((c) => c.case);
  // schema judges only the answers the skill gave, legal only those that parse: with none, the
  // check did not pass, it had nothing to judge (a skill that never decides is no "✓").
  const judged: Partial<Record<CheckName, Invocation[]>> = {
    schema: ran.filter((i) => i.decision !== undefined),
    legal: ran.filter((i) => i.decision !== undefined && schemaIssues(i) === null),
  };
  for (const [name, check] of INVOCATION_CHECKS) {
    const subset = judged[name];
    runs.set(
      name,
      !ran.length
        ? { check: name, findings: [], skipped: NOT_RUN }
        : subset && subset.length === 0
          ? { check: name, findings: [], skipped: nothingJudged(name, ran.length) }
          : { check: name, findings: ran.flatMap(check), skipped: null },
    );
  }
  const all = cases.flatMap((c) => (c.invocation ? [c.invocation] : []));
  for (const run of [
    memoryCheck(all, byCase('memory'), byCase('intent')),
    repromptCheck(byCase('reprompt'), byCase('action')),
    forwardCompatCheck(byCase('extra_fields'), byCase('action')),
    determinismCheck(byCase('determinism'), byCase('action')),
  ]) {
    runs.set(run.check, run);
  }

  options.onStage?.('games');
  const games = await playGames(agent, options.games ?? 2, seed);
  runs.set('games', gamesCheck(games));
  let traced: Awaited<ReturnType<typeof traceContainment>> | null = null;
  if (processes) {
    const windowSamples = samples.filter((s) => WINDOW_CASES.has(s.case));
    traced = sandboxDecision().kind === 'bwrap' ? await traceContainment(agent, windowSamples, seed) : null;
    runs.set('containment', await probeContainment(skill, all, traced));
  } else {
    runs.set('containment', { check: 'containment', findings: [], skipped: `a ${skill.kind} skill runs in-process, not in a sandbox` });
  }

  const covered = `${ran.length} window cases (${ran.map((i) => i.case).join(', ')})${notRun.length ? `; not run: ${notRun.join(', ')}` : ''}`;
  const passDetails: Partial<Record<CheckName, string>> = {
    load: `${skill.kind} skill: ${summary(skill).runs}; deadline ${deadlineOf(skill)} ms; fallback ${skill.fallback}`,
    memory: `ran again with the memory it returned (${plural(Object.keys(byCase('memory')?.memoryIn ?? {}).length, 'top-level key')})`,
    reprompt: `answered legally after ${byCase('reprompt')?.sample.request.constraints.reprompt?.code ?? 'a rejection'}`,
    forward_compat: 'answered with unknown fields added at every level',
    determinism: 'the same decision twice',
    games: gamesDetails(games),
    containment: containmentDetails(skill, traced !== null && !traced.findings.some((f) => f.key === 'containment/untraced')),
  };
  for (const [name] of INVOCATION_CHECKS) {
    const subset = judged[name];
    passDetails[name] =
      subset && subset.length < ran.length
        ? `${subset.length} of ${plural(ran.length, 'window case')} gave ${name === 'legal' ? 'a schema-valid' : 'a'} decision to judge (${subset.map((i) => i.case).join(', ')})`
        : covered;
  }
  return finish({ skill: summary(skill), start_ts, runs, cases, games, passDetails });
}

/** What a passed containment check says: the sandbox the skill had, and what was checked. */
function containmentDetails(skill: Skill, wasTraced: boolean): string {
  const network = skill.sandbox.network ? 'the internet only (slirp4netns)' : 'none';
  const sandbox = `sandboxed (bubblewrap; network: ${network}; work dir quota ${Math.round(sandboxSettings().diskBytes / MIB)} MiB)`;
  return `${sandbox}; ${wasTraced ? 'traced: no attempt outside the sandbox, no limit hit' : 'not traced'}; the probe reached nothing`;
}

/** Why schema or legal had nothing to judge. */
const nothingJudged = (name: CheckName, ran: number): string =>
  name === 'schema'
    ? `nothing to judge: none of the ${plural(ran, 'window case')} produced a decision (see the decision and protocol checks)`
    : `nothing to judge: none of the ${plural(ran, 'window case')} produced a decision that matches its schema`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function gamesDetails(g: GamesFigures): string {
  const pct = (x: number | null) => (x === null ? '–' : `${Math.round(x * 1000) / 10}%`);
  return `${g.games} game${g.games === 1 ? '' : 's'}, ${g.decisions} decisions: ${pct(g.legal_rate)} legal, passed in ${pct(g.pass_rate)} of action windows, ${g.failures} failures`;
}

function finish(r: {
  skill: AgentCheckReport['skill'];
  start_ts: string;
  runs: Map<CheckName, CheckRun>;
  cases: Array<{ case: CaseName; invocation: Invocation | null }>;
  games: GamesFigures | null;
  passDetails: Partial<Record<CheckName, string>>;
}): AgentCheckReport {
  const findings = mergeFindings([...r.runs.values()].flatMap((run) => run.findings));
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    scenario: 'agent-check',
    skill: r.skill,
    start_ts: r.start_ts,
    end_ts: new Date().toISOString(),
    ok: errors === 0,
    errors,
    warnings: findings.length - errors,
    assertions: assertionsOf(r.runs, findings, r.passDetails),
    findings,
    figures: {
      invocations: r.cases.filter((c) => c.invocation).length,
      cases: r.cases.map(caseFigure),
      games: r.games,
    },
  };
}
