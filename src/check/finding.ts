import type { Window } from '../protocol/index.js';

/**
 * The checks of `tiltyard agent-check`, in the order the report lists them. Per-invocation checks
 * run on every window case; the edge checks compare an edge case with its plain case; `games`
 * judges whole games.
 */
export const CHECKS = {
  load: 'the skill folder loads (SKILL.md, config, command or plan)',
  protocol:
    'every invocation speaks the NDJSON tool protocol to the end (done, no bad line, no timeout)',
  exit_code: 'the process exits with status 0',
  violations:
    'nothing the runtime had to ignore or refuse (events after done, foreign assets, unknown ui_events, stray processes)',
  stderr: 'stderr stays quiet',
  decision: 'the merged state_patch holds a "decision"',
  schema: "the decision matches the window's schema",
  legal: 'the engine accepts the decision on the state that asked',
  latency: "answers within half of the skill's deadline",
  memory: 'memory is a JSON object under 64 KiB, and the agent works when it comes back',
  reprompt: 'answers a reprompt (constraints.reprompt set after a rejected answer)',
  forward_compat: 'ignores unknown extra fields in the request',
  determinism: 'the same request gives the same decision',
  games: 'full games against built-ins: legal answers, no failures',
  containment:
    "the agent ran in the sandbox and, traced, tried nothing it stops (other processes' /proc, paths outside its view, writes outside its work dir, connections without metadata.network, processes left behind) and hit no memory, process or CPU limit; a probe in the skill's sandbox cannot read the server's /proc, the project, the data folder or the home folder",
} as const;
export type CheckName = keyof typeof CHECKS;
export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];

export type Severity = 'error' | 'warning';

/** One thing the author should look at, and how to fix it. */
export type Finding = {
  check: CheckName;
  severity: Severity;
  window?: Window;
  message: string;
  hint: string;
};

/**
 * A finding before the report merges repeats: `key` says which findings are the same problem (a
 * failure code, a violation code…), so one bad habit across six windows reads as one finding.
 */
export type Raw = Finding & { key: string };

export const raw = (
  check: CheckName,
  severity: Severity,
  key: string,
  message: string,
  hint: string,
  window?: Window,
): Raw =>
  window === undefined
    ? { check, severity, key, message, hint }
    : { check, severity, key, message, hint, window };

/** A check that runs once over several invocations: its findings, or why it could not run. */
export type CheckRun = { check: CheckName; findings: Raw[]; skipped: string | null };

export const skipped = (check: CheckName, why: string): CheckRun => ({
  check,
  findings: [],
  skipped: why,
});
