import type { Window } from '../protocol/index.js';
import { CHECK_NAMES, type CheckName, type CheckRun, type Finding, type Raw } from './finding.js';
import type { GamesFigures } from './games.js';
import type { CaseName, Invocation } from './invocation.js';

/** Seed 004 assertion, plus `skip` for a check that could not be judged (said why in details). */
export type Assertion = { name: CheckName; status: 'pass' | 'fail' | 'skip'; details: string };

export type SkillSummary = {
  name: string;
  dir: string;
  kind: string;
  runs: string;
  timeout_ms: number;
  fallback: string;
};

export type CaseFigure = {
  case: CaseName;
  window: Window | null;
  ran: boolean;
  ok: boolean;
  failure: string | null;
  latency_ms: number | null;
};

/** What `tiltyard agent-check --json` prints: a seed-004-style RunReport for one skill. */
export type AgentCheckReport = {
  scenario: 'agent-check';
  skill: SkillSummary | { dir: string };
  start_ts: string;
  end_ts: string;
  ok: boolean;
  errors: number;
  warnings: number;
  assertions: Assertion[];
  findings: Finding[];
  figures: { invocations: number; cases: CaseFigure[]; games: GamesFigures | null };
};

/**
 * One finding per problem: repeats of the same check and key (say protocol/bad_json in all six
 * windows) merge, naming the windows, without the window field when they differ. Errors first,
 * then in check order.
 */
export function mergeFindings(raws: readonly Raw[]): Finding[] {
  const groups = new Map<string, { first: Raw; windows: Window[]; count: number }>();
  for (const r of raws) {
    const id = `${r.check}\u0000${r.severity}\u0000${r.key}\u0000${r.hint}`;
    const g = groups.get(id);
    if (!g) groups.set(id, { first: r, windows: r.window ? [r.window] : [], count: 1 });
    else {
      g.count++;
      if (r.window && !g.windows.includes(r.window)) g.windows.push(r.window);
    }
  }
  const rank = (f: Raw) => (f.severity === 'error' ? 0 : 1) * 100 + CHECK_NAMES.indexOf(f.check);
  return [...groups.values()]
    .sort((a, b) => rank(a.first) - rank(b.first))
    .map(({ first, windows, count }) => {
      const { key: _key, ...f } = first;
      if (count === 1) return f;
      const where =
        windows.length > 1 ? ` (${count} times, in ${windows.join(', ')})` : ` (${count} times)`;
      const merged: Finding = {
        check: f.check,
        severity: f.severity,
        message: `${f.message}${where}`,
        hint: f.hint,
      };
      if (windows.length === 1) merged.window = windows[0]!;
      return merged;
    });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One assertion per check: fail on an error, skip when it could not be judged, else pass. */
export function assertionsOf(
  runs: ReadonlyMap<CheckName, CheckRun>,
  findings: readonly Finding[],
  passDetails: Partial<Record<CheckName, string>>,
): Assertion[] {
  return CHECK_NAMES.map((name): Assertion => {
    const run = runs.get(name);
    if (!run) return { name, status: 'skip', details: 'not run' };
    const mine = findings.filter((f) => f.check === name);
    const errors = mine.filter((f) => f.severity === 'error').length;
    const warnings = mine.length - errors;
    if (errors)
      return {
        name,
        status: 'fail',
        details: [plural(errors, 'error'), warnings ? plural(warnings, 'warning') : '']
          .filter(Boolean)
          .join(', '),
      };
    if (run.skipped) return { name, status: 'skip', details: run.skipped };
    const base = passDetails[name] ?? 'passed';
    return {
      name,
      status: 'pass',
      details: warnings ? `${base}; ${plural(warnings, 'warning')}` : base,
    };
  });
}

export const caseFigure = (c: { case: CaseName; invocation: Invocation | null }): CaseFigure => {
  const inv = c.invocation;
  return {
    case: c.case,
    window: inv?.window ?? null,
    ran: inv !== null,
    ok: inv !== null && inv.failure === null,
    failure: inv?.failure?.code ?? null,
    latency_ms: inv ? Math.round(inv.latencyMs) : null,
  };
};
