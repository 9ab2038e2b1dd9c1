import { describe, expect, it } from 'vitest';
import { about, errors, fixtureSkill, report, status, useTempDir } from './agent-check-support.js';
import { tiltyard, tiltyardWith } from './run-cli.js';

const tmp = useTempDir();

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
      fixtureSkill(tmp(), 'env-dump'),
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
      await tiltyard('agent-check', fixtureSkill(tmp(), 'megabytes'), '--json', '--games', '0'),
    );
    expect(about(r, 'protocol', 'protocol/output_too_large')).toMatchObject({ severity: 'error' });
    expect(r.ok).toBe(false);
  });

  it('half a line, then sleeping past the deadline: a timeout whose hint names the deadline', async () => {
    const run = await tiltyard(
      'agent-check',
      fixtureSkill(tmp(), 'half-line', 1_000),
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
      await tiltyardWith({ env: { TILTYARD_SANDBOX: 'off' } }, 'agent-check', fixtureSkill(tmp(), 'held-open'), '--json', '--games', '0'),
    );
    expect(about(r, 'violations', 'process/stdout_held_open')).toMatchObject({ severity: 'error' });
    expect(about(r, 'containment', 'without a sandbox')).toMatchObject({ severity: 'warning' });
    // The real state, said once: never "sandboxed" beside the warning.
    expect(r.assertions.find((a) => a.name === 'containment')).toEqual({ name: 'containment', status: 'skip', details: expect.stringMatching(/^UNSANDBOXED \(TILTYARD_SANDBOX=off\)/) });
    expect(JSON.stringify(r)).not.toMatch(/sandboxed \(bubblewrap/);
    expect(status(r, 'protocol')).toBe('pass');
  });

  it('the same child in the sandbox: it dies with the agent, nothing holds stdout, and the trace reports it left behind', async () => {
    const r = report(
      // A deadline no loaded machine reaches: a timed-out agent's children are collateral, not left behind.
      await tiltyard('agent-check', fixtureSkill(tmp(), 'held-open', 30_000), '--json', '--games', '0'),
    );
    expect(about(r, 'violations', 'process/stdout_held_open')).toBeUndefined();
    expect(about(r, 'containment', 'containment/left_behind')?.message).toContain('"sleep", "2"');
    expect(errors(r).map((f) => f.check)).toEqual(['containment']);
  });

  it('an asset at ../../etc/passwd: a violations error, the answers themselves are fine', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill(tmp(), 'bad-asset'), '--json', '--games', '0'),
    );
    expect(about(r, 'violations', 'asset/outside_work_dir')).toMatchObject({ severity: 'error' });
    expect(errors(r).map((f) => f.check)).toEqual(['violations']);
  });

  it('exit 1 after done: an exit_code error, not a protocol one', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill(tmp(), 'exit-after-done'), '--json', '--games', '0'),
    );
    expect(about(r, 'exit_code', 'exited with code 1 after done')).toMatchObject({
      severity: 'error',
    });
    expect(status(r, 'exit_code')).toBe('fail');
    expect(status(r, 'protocol')).toBe('pass');
  });

  it('no decision at all: schema and legal say they had nothing to judge, never a ✓', async () => {
    const run = await tiltyard('agent-check', fixtureSkill(tmp(), 'no-decision'), '--games', '0');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ decision/);
    expect(run.stdout).toMatch(/– schema +nothing to judge: none of the \d+ window cases produced a decision/);
    expect(run.stdout).toMatch(/– legal +nothing to judge: none of the \d+ window cases produced a decision that matches its schema/);
    expect(run.stdout).not.toMatch(/✓ (schema|legal)/);
  });

  it('invalid UTF-8 on stdout: a protocol error', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill(tmp(), 'invalid-utf8'), '--json', '--games', '0'),
    );
    expect(about(r, 'protocol', 'protocol/invalid_utf8')).toMatchObject({ severity: 'error' });
  });

  it('schema-invalid decisions: a schema error in every window, and legality is not judged on top', async () => {
    const r = report(
      await tiltyard('agent-check', fixtureSkill(tmp(), 'schema-invalid'), '--json', '--games', '0'),
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
    const run = await tiltyard('agent-check', fixtureSkill(tmp(), 'illegal'), '--json', '--games', '1');
    expect(run.code).toBe(1);
    const r = report(run);
    for (const code of ['action/card_not_in_hand', 'reaction/not_a_guard', 'talk/private_needs_target', 'intent/illegal_target']) {
      expect(about(r, 'legal', code)).toMatchObject({ severity: 'error', window: code.split('/')[0] });
    }
    expect(r.findings.filter((f) => f.check === 'schema')).toEqual([]);
    expect(about(r, 'games', 'rejected by the engine')).toMatchObject({ severity: 'error' });
    expect(r.figures.games!.legal_rate).toBeLessThan(1);
  });

  it('unknown ui_event, stderr chatter and a line after done are warnings only: exit 0', async () => {
    const run = await tiltyard('agent-check', fixtureSkill(tmp(), 'unknown-ui'), '--json', '--games', '0');
    const r = report(run);
    expect(errors(r)).toEqual([]);
    expect(run.code).toBe(0);
    expect(about(r, 'violations', 'ui_event/unsupported')).toMatchObject({ severity: 'warning' });
    expect(about(r, 'violations', 'protocol/after_done')).toMatchObject({ severity: 'warning' });
    expect(about(r, 'stderr', 'thinking hard')).toMatchObject({ severity: 'warning' });
  });
});
