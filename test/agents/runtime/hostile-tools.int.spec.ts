import { afterEach, describe, expect, it } from 'vitest';
import { minimalEnv } from '../../../src/agents/runtime/process-runner.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../../../src/protocol/index.js';
import { sandboxSettings } from '../../../src/agents/sandbox/index.js';
import { cleanupDirs, eventually, isAlive, reportedPid, runTool, sleptThrough, workDir } from './tool-harness.js';

const SECRETS = {
  DATABASE_URL: 'postgres://tiltyard:S3CRET-DB-PASSWORD@db.internal:5432/tiltyard',
  TILTYARD_ADMIN_TOKEN: 'adm_9f8e7d6c5b4a-SECRET-TOKEN',
};

/** Processes a test saw escape; killed whatever the assertions said. */
const strays: number[] = [];

afterEach(() => {
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const key of Object.keys(SECRETS)) delete process.env[key];
  cleanupDirs();
});

/**
 * The process-group handling under the sandbox's `off` mode: the pids these fixtures report are
 * host pids only outside a PID namespace (sandbox.int.spec.ts covers the same escapes confined).
 */
const UNCONFINED = { sandbox: { settings: { ...sandboxSettings({}), mode: 'off' as const } } };

describe('hostile tools', () => {
  it('given a tool that prints its whole environment, then no server secret appears anywhere in the outcome', async () => {
    Object.assign(process.env, SECRETS);
    const cwd = workDir();
    const outcome = await runTool('print-env.py', { cwd, env: minimalEnv(cwd) });
    expect(outcome.ok).toBe(true);
    const fields = outcome.logs[0]?.fields ?? {};
    expect(fields['TILTYARD_PROTOCOL_VERSION']).toBe('0'); // it did print its environment
    expect(fields['HOME']).toBe(cwd);
    const everything = JSON.stringify(outcome);
    for (const [key, value] of Object.entries(SECRETS)) {
      expect(everything).not.toContain(value);
      expect(fields).not.toHaveProperty(key);
    }
    expect(outcome.stderr).toContain('HOME='); // and printed it on stderr too
  });

  it('given a tool that streams megabytes, then the output cap stops it fast', async () => {
    // The cap, not the deadline, must end it: a roomy deadline, since reading 8 MB through a pipe
    // took over 10 s at a load of 25 on 2 cores.
    const outcome = await runTool('flood.sh', { deadlineMs: 50_000 });
    expect(outcome.failure?.code).toBe('protocol/output_too_large');
    expect(outcome.signal).toBe('SIGKILL');
    expect(outcome.stdoutBytes).toBeGreaterThan(DEFAULT_MAX_OUTPUT_BYTES);
    // Only what fits under the cap is parsed.
    const lineBytes = '{"version":"0","type":"log","level":"info","message":"flood"}\n'.length;
    expect(outcome.logs.length).toBe(Math.floor(DEFAULT_MAX_OUTPUT_BYTES / lineBytes));
  });

  it('given half a line and then sleeping past the deadline, then it times out and the half line is no event', async () => {
    const cwd = workDir();
    const outcome = await runTool('half-line.sh', { cwd, deadlineMs: 300, killGraceMs: 200 });
    expect(outcome.failure?.code).toBe('process/timeout');
    expect(outcome.events.map((e) => e.type)).toEqual(['log']);
    expect(outcome.done).toBeNull();
    // Not killed, it would have slept its 30 s: the call returned on the deadline's kill.
    expect(sleptThrough(cwd)).toBe(false);
  });

  it('given a forked child holding stdout open while the tool hangs, then both are dead when the call returns promptly after the deadline', async () => {
    const cwd = workDir();
    const outcome = await runTool('fork-sleeper.sh', { cwd, deadlineMs: 400, killGraceMs: 200, ...UNCONFINED });
    const child = reportedPid(outcome);
    strays.push(child);
    expect(outcome.failure?.code).toBe('process/timeout');
    // The child holds stdout for 30 s: returning before its sleep ended is not waiting for it.
    expect(sleptThrough(cwd)).toBe(false);
    expect(await eventually(() => !isAlive(child))).toBe(true);
  });

  it('given a tool that exits leaving a child holding stdout, then the child is killed with its group and the call returns', async () => {
    const cwd = workDir();
    const outcome = await runTool('fork-exit.sh', { cwd, deadlineMs: 10_000, ...UNCONFINED });
    const child = reportedPid(outcome);
    strays.push(child);
    expect(outcome.ok).toBe(true);
    expect(sleptThrough(cwd)).toBe(false); // the child would hold stdout for its 30 s sleep
    expect(await eventually(() => !isAlive(child))).toBe(true);
  });

  it('given a child that left the process group and holds stdout, then the call stops waiting for it shortly after the tool exits', async () => {
    const outcome = await runTool('escape-group.py', { deadlineMs: 10_000, ...UNCONFINED });
    const child = reportedPid(outcome);
    // The escaped child holds stdout until its 30 s sleep ends: still alive now, the call did not wait for it.
    const aliveOnReturn = isAlive(child);
    strays.push(child); // out of our reach by design: setsid leaves the group
    expect(aliveOnReturn).toBe(true);
    expect(outcome.ok).toBe(true);
    expect(outcome.violations.map((v) => v.code)).toContain('process/stdout_held_open');
  });

  it('given assets claimed outside the work dir (relative, absolute, through a symlink), then only the one inside is kept', async () => {
    const outcome = await runTool('asset-claims.sh');
    expect(outcome.ok).toBe(true);
    expect(outcome.assets.map((a) => a.assetId)).toEqual(['ok']);
    const outside = outcome.violations
      .filter((v) => v.code === 'asset/outside_work_dir')
      .map((v) => v.message);
    expect(outside).toHaveLength(3);
    expect(outside[0]).toContain('../../etc/passwd');
    expect(outcome.violations.map((v) => v.code)).toContain('asset/duplicate_id');
  });

  it('given a non-zero exit after a valid done, then the invocation fails', async () => {
    const outcome = await runTool('exit-after-done.py');
    expect(outcome.failure).toEqual({
      code: 'protocol/exit_code',
      message: expect.stringContaining('code 1 after done') as string,
    });
    expect(outcome.ok).toBe(false);
  });

  it('given bytes that are not UTF-8, then it fails as invalid UTF-8', async () => {
    const outcome = await runTool('invalid-utf8.sh');
    expect(outcome.failure?.code).toBe('protocol/invalid_utf8');
    expect(outcome.events).toEqual([]);
  });
});
