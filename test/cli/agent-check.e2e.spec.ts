import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/check/finding.js';
import type { AgentCheckReport } from '../../src/check/report.js';
import { tiltyard, tiltyardWith, type CliRun } from './run-cli.js';

const root = join(import.meta.dirname, '..', '..');
const fixtures = join(root, 'test', 'agents', 'fixtures', 'check');
const sandboxFixtures = join(root, 'test', 'agents', 'fixtures', 'sandbox');
const skillsDir = join(root, 'skills');

/** Every folder under skills/ as the test starts: each must pass, none is skipped. */
const shipped = existsSync(skillsDir)
  ? readdirSync(skillsDir)
      .filter((n) => statSync(join(skillsDir, n)).isDirectory())
      .sort()
  : [];

let tmp: string;

/**
 * A temp skill folder whose command runs one hostile fixture script, copied in with its lib.sh:
 * the sandbox shows an agent its own folder only.
 */
function fixtureSkill(name: string, timeoutMs = 3_000): string {
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
 * A temp skill folder around one of the sandbox's hostile fixtures (the same scripts the sandbox
 * tests run), told what to try by a hostile.json beside it.
 */
/**
 * The real python3 (not a version manager's shim, which the sandbox may not show), asked once: a
 * loaded machine can take longer than the runtime's own lookup allows.
 */
const python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

function hostileSkill(name: string, script: string, params: object, metadata = ''): string {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(sandboxFixtures, script), join(dir, script));
  writeFileSync(join(dir, 'hostile.json'), JSON.stringify(params));
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: hostile fixture ${script}\nmetadata:\n  command: ${python} ${script}\n  timeout_ms: "60000"\n${metadata}---\n# ${name}\n`,
  );
  return dir;
}

function report(run: CliRun): AgentCheckReport {
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(run.stdout) as AgentCheckReport;
}

const errors = (r: AgentCheckReport) => r.findings.filter((f) => f.severity === 'error');
const about = (r: AgentCheckReport, check: string, text: string): Finding | undefined =>
  r.findings.find((f) => f.check === check && f.message.includes(text));
const status = (r: AgentCheckReport, name: string) =>
  r.assertions.find((a) => a.name === name)?.status;

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'agent-check-e2e-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('tiltyard agent-check on the shipped skills', () => {
  it('finds skill folders to check', () => {
    expect(shipped.length).toBeGreaterThan(0);
  });

  it.each(shipped)(
    'passes on skills/%s (exit 0, no error)',
    async (name) => {
      const run = await tiltyard('agent-check', join('skills', name), '--json');
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

describe.concurrent('tiltyard agent-check on hostile agents', () => {
  it('an agent that prints its environment: bad JSON, and nothing secret reaches it or the report', async () => {
    const secret = 's3cr3t-agent-check-value';
    const run = await tiltyardWith(
      {
        env: {
          TILTYARD_CHECK_SECRET: secret,
          DATABASE_URL: 'postgres://user:hunter2@db.internal/tiltyard',
        },
      },
      'agent-check',
      fixtureSkill('env-dump'),
      '--json',
      '--games',
      '0',
    );
    expect(run.code).toBe(1);
    const r = report(run);
    const f = about(r, 'protocol', 'protocol/bad_json');
    expect(f).toMatchObject({ severity: 'error' });
    expect(f!.hint).toBe(
      'print exactly one JSON object per line to stdout; send diagnostics to stderr (or as log events)',
    );
    // The agent printed what it was given: the runtime's minimal environment has neither.
    expect(f!.message).toContain('secret=[unset] database=[unset]');
    for (const leak of [secret, 'hunter2', 'db.internal'])
      expect(run.stdout + run.stderr).not.toContain(leak);
  });

  it('an agent that streams megabytes: the output cap stops it', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill('megabytes'), '--json', '--games', '0'),
    );
    expect(about(r, 'protocol', 'protocol/output_too_large')).toMatchObject({ severity: 'error' });
    expect(r.ok).toBe(false);
  });

  it('half a line, then sleeping past the deadline: a timeout whose hint names the deadline', async () => {
    const run = await tiltyard(
      'agent-check',
      fixtureSkill('half-line', 1_000),
      '--json',
      '--games',
      '0',
    );
    expect(run.code).toBe(1);
    const f = about(report(run), 'protocol', 'process/timeout');
    expect(f).toMatchObject({ severity: 'error' });
    expect(f!.hint).toContain('1000 ms');
  });

  it('a child that escaped the process group holding stdout, unsandboxed: a violations error', async () => {
    const r = report(
      await tiltyardWith({ env: { TILTYARD_SANDBOX: 'off' } }, 'agent-check', fixtureSkill('held-open'), '--json', '--games', '0'),
    );
    expect(about(r, 'violations', 'process/stdout_held_open')).toMatchObject({ severity: 'error' });
    expect(about(r, 'containment', 'without a sandbox')).toMatchObject({ severity: 'warning' });
    expect(status(r, 'protocol')).toBe('pass');
  });

  it('the same child in the sandbox: it dies with the agent, nothing holds stdout, and the trace reports it left behind', async () => {
    const r = report(
      // A deadline no loaded machine reaches: a timed-out agent's children are collateral, not left behind.
      await tiltyard('agent-check', fixtureSkill('held-open', 30_000), '--json', '--games', '0'),
    );
    expect(about(r, 'violations', 'process/stdout_held_open')).toBeUndefined();
    expect(about(r, 'containment', 'containment/left_behind')?.message).toContain('"sleep", "2"');
    expect(errors(r).map((f) => f.check)).toEqual(['containment']);
  });

  it('an asset at ../../etc/passwd: a violations error, the answers themselves are fine', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill('bad-asset'), '--json', '--games', '0'),
    );
    expect(about(r, 'violations', 'asset/outside_work_dir')).toMatchObject({ severity: 'error' });
    expect(errors(r).map((f) => f.check)).toEqual(['violations']);
  });

  it('exit 1 after done: an exit_code error, not a protocol one', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill('exit-after-done'), '--json', '--games', '0'),
    );
    expect(about(r, 'exit_code', 'exited with code 1 after done')).toMatchObject({
      severity: 'error',
    });
    expect(status(r, 'exit_code')).toBe('fail');
    expect(status(r, 'protocol')).toBe('pass');
  });

  it('no decision at all: schema and legal say they had nothing to judge, never a ✓', async () => {
    const run = await tiltyard('agent-check', fixtureSkill('no-decision'), '--games', '0');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ decision/);
    expect(run.stdout).toMatch(/– schema +nothing to judge: none of the \d+ window cases produced a decision/);
    expect(run.stdout).toMatch(/– legal +nothing to judge: none of the \d+ window cases produced a decision that matches its schema/);
    expect(run.stdout).not.toMatch(/✓ (schema|legal)/);
  });

  it('invalid UTF-8 on stdout: a protocol error', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill('invalid-utf8'), '--json', '--games', '0'),
    );
    expect(about(r, 'protocol', 'protocol/invalid_utf8')).toMatchObject({ severity: 'error' });
  });

  it('schema-invalid decisions: a schema error in every window, and legality is not judged on top', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill('schema-invalid'), '--json', '--games', '0'),
    );
    const schema = r.findings.filter((f) => f.check === 'schema');
    expect(new Set(schema.map((f) => f.window))).toEqual(
      new Set(['intent', 'talk', 'action', 'reaction', 'reflect']),
    );
    expect(schema.every((f) => f.severity === 'error' && f.hint.startsWith('answer the'))).toBe(
      true,
    );
    expect(r.findings.filter((f) => f.check === 'legal')).toEqual([]);
    expect(status(r, 'protocol')).toBe('pass');
  });

  it('well-formed but illegal decisions: legal errors with the engine’s codes, in checks and in games', async () => {
    const run = await tiltyard('agent-check', fixtureSkill('illegal'), '--json', '--games', '1');
    expect(run.code).toBe(1);
    const r = report(run);
    expect(about(r, 'legal', 'action/card_not_in_hand')).toMatchObject({
      severity: 'error',
      window: 'action',
    });
    expect(about(r, 'legal', 'reaction/not_a_guard')).toMatchObject({
      severity: 'error',
      window: 'reaction',
    });
    expect(about(r, 'legal', 'talk/private_needs_target')).toMatchObject({
      severity: 'error',
      window: 'talk',
    });
    expect(about(r, 'legal', 'intent/illegal_target')).toMatchObject({
      severity: 'error',
      window: 'intent',
    });
    expect(r.findings.filter((f) => f.check === 'schema')).toEqual([]);
    expect(about(r, 'games', 'rejected by the engine')).toMatchObject({ severity: 'error' });
    expect(r.figures.games!.legal_rate).toBeLessThan(1);
  });

  it('unknown ui_event, stderr chatter and a line after done are warnings only: exit 0', async () => {
    const run = await tiltyard('agent-check', fixtureSkill('unknown-ui'), '--json', '--games', '0');
    const r = report(run);
    expect(errors(r)).toEqual([]);
    expect(run.code).toBe(0);
    expect(about(r, 'violations', 'ui_event/unsupported')).toMatchObject({ severity: 'warning' });
    expect(about(r, 'violations', 'protocol/after_done')).toMatchObject({ severity: 'warning' });
    expect(about(r, 'stderr', 'thinking hard')).toMatchObject({ severity: 'warning' });
  });
});

/**
 * Issue 12: "agent-check reports each such attempt as a finding". Each hostile fixture of the
 * sandbox tests, run as a skill, gets the finding of its own rule, naming what it aimed at. The
 * sandbox makes every attempt fail silently (ENOENT, EAGAIN…): only the traced pass sees them.
 */
describe.concurrent('tiltyard agent-check traces what a sandboxed agent tries', () => {
  const pid = process.pid;
  const run = async (dir: string, env: Record<string, string> = {}) =>
    report(await tiltyardWith({ env }, 'agent-check', dir, '--json', '--games', '0'));
  const finding = (r: AgentCheckReport, rule: string) => {
    const f = about(r, 'containment', `containment/${rule}`);
    expect(f, `containment/${rule} in ${JSON.stringify(r.findings)}`).toMatchObject({ severity: 'error' });
    return f!.message;
  };

  it("reading another process's /proc/<pid>/environ, cmdline and mem: proc_secrets, naming each", async () => {
    const paths = ['environ', 'cmdline', 'mem'].map((e) => `/proc/${pid}/${e}`);
    const r = await run(hostileSkill('proc-reader', 'probe.py', { read: paths }));
    const message = finding(r, 'proc_secrets');
    for (const path of paths) expect(message).toContain(path);
    expect(r.ok).toBe(false);
  });

  it("reading the data folder, the project root, another seat's work dir and home: outside_view, naming each place", async () => {
    const data = mkdtempSync(join(tmpdir(), 'tiltyard-data-'));
    const seats = join(tmpdir(), 'tiltyard-agents');
    mkdirSync(seats, { recursive: true });
    const otherSeat = mkdtempSync(join(seats, 'other-seat2-'));
    try {
      writeFileSync(join(data, 'games.db'), 'hidden hands');
      writeFileSync(join(otherSeat, 'plan.json'), 'secret plan');
      const r = await run(
        hostileSkill('snoop', 'probe.py', {
          read: [join(data, 'games.db'), join(root, 'package.json'), join(otherSeat, 'plan.json'), join(homedir(), '.bashrc')],
          list: [otherSeat],
        }),
        { TILTYARD_DATA_DIR: data },
      );
      const message = finding(r, 'outside_view');
      expect(message).toContain(`${join(data, 'games.db')} (the data folder)`);
      expect(message).toContain(`${join(root, 'package.json')} (the project folder)`);
      expect(message).toContain(`${join(otherSeat, 'plan.json')} (another seat's work dir)`);
      expect(message).toContain(`${join(homedir(), '.bashrc')} (the home folder)`);
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(otherSeat, { recursive: true, force: true });
    }
  });

  it('writing outside its work dir: write_outside naming the paths, nothing written, its own dir allowed', async () => {
    const seats = join(tmpdir(), 'tiltyard-agents');
    mkdirSync(seats, { recursive: true });
    const otherSeat = mkdtempSync(join(seats, 'other-seat3-'));
    const inRoot = join(root, `pwned-check-${pid}`);
    try {
      const r = await run(hostileSkill('writer', 'probe.py', { write: [join(otherSeat, 'pwned'), inRoot, 'mine.txt'] }));
      const message = finding(r, 'write_outside');
      expect(message).toContain(join(otherSeat, 'pwned'));
      expect(message).toContain(inRoot);
      expect(message).not.toContain('mine.txt');
      expect(existsSync(inRoot)).toBe(false);
      expect(existsSync(join(otherSeat, 'pwned'))).toBe(false);
    } finally {
      rmSync(otherSeat, { recursive: true, force: true });
      rmSync(inRoot, { force: true });
    }
  });

  it('a TCP connection to 127.0.0.1:5432 without the network opt-in: network, naming the address', async () => {
    const r = await run(hostileSkill('dialer', 'probe.py', { connect: [['127.0.0.1', 5432]] }));
    expect(finding(r, 'network')).toContain('127.0.0.1:5432');
    // The trace is certain: the stderr guess for the same rule is not reported on top.
    expect(about(r, 'containment', 'sandbox/network_denied')).toBeUndefined();
  });

  it('with metadata.network the same connection is no finding', async () => {
    const r = await run(hostileSkill('dialer-allowed', 'probe.py', { connect: [['127.0.0.1', 5432]] }, '  network: "true"\n'));
    expect(about(r, 'containment', 'containment/network')).toBeUndefined();
  });

  it('a memory hog over its memory_mb: memory_limit', async () => {
    const r = await run(hostileSkill('hog', 'memory-hog.py', { mb: 512 }, '  memory_mb: "128"\n'));
    expect(finding(r, 'memory_limit')).toMatch(/mmap refused|mremap refused/);
  });

  it('a fork bomb: process_limit', async () => {
    const r = await run(hostileSkill('bomb', 'fork-bomb.py', { tries: 140 }));
    expect(finding(r, 'process_limit')).toMatch(/clone|fork/);
  });

  it('a setsid double-forked grandchild: left_behind, naming the program', async () => {
    const marker = `${6000 + pid}.77`;
    const r = await run(hostileSkill('daemon', 'double-fork.py', { marker }));
    expect(finding(r, 'left_behind')).toContain(`"sleep", "${marker}"`);
  });
});

describe('tiltyard agent-check output and usage', () => {
  it('prints a table of checks and the findings with their hints', async () => {
    const run = await tiltyard('agent-check', fixtureSkill('valid'), '--games', '1');
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /^agent-check valid \(command: sh .*valid\.sh · deadline 3000 ms · fallback balanced\)/,
    );
    expect(run.stdout).toMatch(/✓ protocol +6 window cases/);
    expect(run.stdout).toMatch(/– memory +not judged: the agent keeps no memory/);
    expect(run.stdout).toContain('! warning games: passed in all');
    expect(run.stdout).toContain('hint: play cards from legal_actions');
    expect(run.stdout).toMatch(/ok: 0 errors, 1 warning\n$/);
  });

  it('a folder that does not load: one load error with a fix hint, exit 1', async () => {
    const dir = join(tmp, 'no-skill');
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
