import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixtureSkill, report, status, useTempDir } from './agent-check-support.js';
import { tiltyard } from './run-cli.js';

/**
 * agent-check's own output and usage. The other cases are in agent-check-skills (the shipped
 * skills), agent-check-hostile (misbehaving agents) and agent-check-traced (what the sandbox
 * stops): separate files so that they run side by side.
 */
const tmp = useTempDir();

describe('tiltyard agent-check output and usage', () => {
  it('prints a table of checks and the findings with their hints', async () => {
    const run = await tiltyard('agent-check', fixtureSkill(tmp(), 'valid'), '--games', '1');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /^agent-check valid \(command: sh .*valid\.sh · deadline 60000 ms · fallback balanced\)/,
    );
    expect(run.stdout).toMatch(/✓ protocol +6 window cases/);
    expect(run.stdout).toMatch(/– memory +not judged: the agent keeps no memory/);
    expect(run.stdout).toContain('! warning games: passed in all');
    expect(run.stdout).toContain('hint: play cards from legal_actions');
    expect(run.stdout).toMatch(/ok: 0 errors, 1 warning\n$/);
  });

  it('a folder that does not load: one load error with a fix hint, exit 1', async () => {
    const dir = join(tmp(), 'no-skill');
    mkdirSync(dir, { recursive: true });
    const run = await tiltyard('agent-check', dir, '--json');
    expect(run.code).toBe(1);
    const r = report(run);
    expect(r.findings.map((f) => [f.check, f.severity])).toEqual([['load', 'error']]);
    expect(r.findings[0]!.message).toContain('has no SKILL.md');
    expect(r.findings[0]!.hint).toContain('add a SKILL.md');
    expect(status(r, 'load')).toBe('fail');
    expect(status(r, 'protocol')).toBe('skip');
    const human = await tiltyard('agent-check', dir);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/✗ load/);
  });

  it.each([
    [[], /expected one skill folder/],
    [['a', 'b'], /expected one skill folder/],
    [['skills/shell-example', '--games', 'two'], /--games: must be a whole number/],
    [['skills/shell-example', '--seed=-1'], /--seed: must be a whole number/],
    [['skills/shell-example', '--bogus'], /unknown flag --bogus/],
  ])('usage error %j: exit 2, one line', async (args, message) => {
    const run = await tiltyard('agent-check', ...args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--help lists the checks', async () => {
    const run = await tiltyard('agent-check', '--help');
    expect(run.code).toBe(0);
    for (const check of ['protocol', 'legal', 'forward_compat', 'determinism', 'games'])
      expect(run.stdout).toContain(`  ${check} `);
  });
});
