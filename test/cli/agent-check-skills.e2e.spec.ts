import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errors, report, root, status } from './agent-check-support.js';
import { tiltyardInProcess } from './in-process.js';

const skillsDir = join(root, 'skills');

/** Every folder under skills/ as the test starts: each must pass, none is skipped. */
const shipped = existsSync(skillsDir)
  ? readdirSync(skillsDir)
      .filter((n) => statSync(join(skillsDir, n)).isDirectory())
      .sort()
  : [];

/**
 * Each skill's check runs in the test process (agent-check's command, its output as the CLI
 * prints it): the subject is the skill, not the process, which agent-check.e2e and progress.e2e
 * spawn. The skills' own processes are real and sandboxed either way.
 */
describe('tiltyard agent-check on the shipped skills', () => {
  it('finds skill folders to check', () => {
    expect(shipped.length).toBeGreaterThan(0);
  });

  it.each(shipped)(
    'passes on skills/%s (exit 0, no error)',
    async (name) => {
      const run = await tiltyardInProcess({ cwd: root }, 'agent-check', join('skills', name), '--json');
      const r = report(run);
      expect(errors(r)).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(r).toMatchObject({ scenario: 'agent-check', ok: true, errors: 0, skill: { name } });
      expect(r.assertions.filter((a) => a.status === 'fail')).toEqual([]);
      for (const name of [
        'load',
        'protocol',
        'schema',
        'legal',
        'reprompt',
        'forward_compat',
        'games',
      ])
        expect(status(r, name)).toBe('pass');
      expect(r.figures.games).toMatchObject({ games: 2, failures: 0, legal_rate: 1 });
      // Traced in its sandbox, a well-behaved skill tries nothing the sandbox stops.
      expect(r.findings.filter((f) => f.check === 'containment')).toEqual([]);
      if ('kind' in r.skill && (r.skill.kind === 'command' || r.skill.kind === 'plan')) {
        expect(status(r, 'containment')).toBe('pass');
        expect(r.assertions.find((a) => a.name === 'containment')?.details).toContain('traced');
      }
      expect(r.figures.cases.every((c) => c.ran && c.ok)).toBe(true);
    },
    300_000,
  );
});
