import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Finding } from '../../src/check/finding.js';
import type { AgentCheckReport } from '../../src/check/report.js';
import type { CliRun } from './run-cli.js';

/**
 * What the agent-check e2e files share (one file per group of cases, so that they run side by
 * side): temp skill folders around the hostile fixtures, and readers of the report.
 */
export const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'agents', 'fixtures', 'check');
const sandboxFixtures = join(root, 'test', 'agents', 'fixtures', 'sandbox');

/** A temp folder for this test file's skills, removed after it. */
export function useTempDir(): () => string {
  let tmp = '';
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'agent-check-e2e-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  return () => tmp;
}

/**
 * A temp skill folder whose command runs one hostile fixture script, copied in with its lib.sh:
 * the sandbox shows an agent its own folder only. The deadline is one no loaded machine reaches
 * (only half-line waits for it, with its own short one): with 3 s, a busy machine's slow answers
 * drew latency warnings (over half the deadline) or timeouts the cases do not expect.
 */
export function fixtureSkill(tmp: string, name: string, timeoutMs = 60_000): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  for (const file of [`${name}.sh`, 'lib.sh']) copyFileSync(join(fixtures, file), join(dir, file));
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: agent-check fixture ${name}\nmetadata:\n  command: sh ${name}.sh\n  timeout_ms: "${timeoutMs}"\n---\n# ${name}\n`,
  );
  return dir;
}

/**
 * The real python3 (not a version manager's shim, which the sandbox may not show), asked once: a
 * loaded machine can take longer than the runtime's own lookup allows.
 */
let python: string | undefined;
const realPython = (): string =>
  (python ??= execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim());

/**
 * A temp skill folder around one of the sandbox's hostile fixtures (the same scripts the sandbox
 * tests run), told what to try by a hostile.json beside it.
 */
export function hostileSkill(tmp: string, name: string, script: string, params: object, metadata = ''): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(sandboxFixtures, script), join(dir, script));
  writeFileSync(join(dir, 'hostile.json'), JSON.stringify(params));
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: hostile fixture ${script}\nmetadata:\n  command: ${realPython()} ${script}\n  timeout_ms: "60000"\n${metadata}---\n# ${name}\n`,
  );
  return dir;
}

/** The --json report: exactly one line of stdout. */
export function report(run: CliRun): AgentCheckReport {
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as AgentCheckReport;
}

export const errors = (r: AgentCheckReport) => r.findings.filter((f) => f.severity === 'error');
export const about = (r: AgentCheckReport, check: string, text: string): Finding | undefined =>
  r.findings.find((f) => f.check === check && f.message.includes(text));
export const status = (r: AgentCheckReport, name: string) =>
  r.assertions.find((a) => a.name === name)?.status;
