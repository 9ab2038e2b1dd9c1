import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalEnv, runProcess } from '../../../src/agents/runtime/process-runner.js';
import type { ToolEvent } from '../../../src/protocol/index.js';
import { INPUT, cleanupDirs, runTool, sleptThrough, toolArgv, workDir } from './tool-harness.js';

afterEach(cleanupDirs);

describe('runProcess: the tool protocol over a real subprocess', () => {
  it('given the seed 001 §9 minimal tool, then it succeeds with its log, patch and summary', async () => {
    const seen: ToolEvent[] = [];
    const outcome = await runTool('minimal.sh', { onEvent: (e) => seen.push(e) });
    expect(outcome.failure).toBeNull();
    expect(outcome.ok).toBe(true);
    expect(outcome.exitCode).toBe(0);
    expect(outcome.done).toEqual({ ok: true, summary: 'Torch lit.' });
    expect(outcome.state).toEqual({ flags: { torchLit: true } });
    expect(outcome.logs.map((l) => l.message)).toEqual(['Starting']);
    expect(outcome.events.map((e) => e.type)).toEqual(['log', 'state_patch', 'done']);
    expect(seen).toEqual(outcome.events);
    expect(outcome.stdoutBytes).toBeGreaterThan(100);
  });

  it('given a tool that reads stdin, then it receives the input as one JSON line', async () => {
    const outcome = await runTool('echo-input.py');
    expect(outcome.ok).toBe(true);
    expect(outcome.state).toEqual({
      echo: { requestId: 'req_1', operation: 'action', input: { turn: 3 } },
    });
  });

  it('given several state patches, then they are deep-merged in order (null deletes, arrays replace)', async () => {
    const outcome = await runTool('patches.sh');
    expect(outcome.ok).toBe(true);
    expect(outcome.state).toEqual({ a: { b: 1, c: 3, e: 4 }, d: [3] });
  });

  it('given an unknown event type, then processing ends there and the tool is killed', async () => {
    const cwd = workDir();
    // A deadline far beyond its 30 s sleep: only the unknown type can end it before the sleep does.
    const outcome = await runTool('unknown-type.sh', { cwd, deadlineMs: 120_000 });
    expect(outcome.failure?.code).toBe('protocol/unknown_type');
    expect(outcome.failure?.message).toContain('"teleport"');
    expect(outcome.logs.map((l) => l.message)).toEqual(['before']);
    expect(outcome.done).toBeNull();
    expect(outcome.signal).toBe('SIGKILL');
    expect(sleptThrough(cwd)).toBe(false);
  });

  it('given an error event, then the invocation continues to its done', async () => {
    const outcome = await runTool('error-continues.sh');
    expect(outcome.failure).toBeNull();
    expect(outcome.errors.map((e) => e.errorCode)).toEqual(['E_MODEL']);
    expect(outcome.state).toEqual({ decision: { action: 'pass' } });
    expect(outcome.done).toEqual({ ok: false, summary: 'fell back' });
    expect(outcome.ok).toBe(false);
  });

  it('given events after done, then they are counted and flagged once but neither merged nor validated', async () => {
    const outcome = await runTool('after-done.sh');
    expect(outcome.ok).toBe(true);
    expect(outcome.state).toEqual({ kept: 1 });
    expect(outcome.afterDone).toBe(3);
    expect(outcome.violations.filter((v) => v.code === 'protocol/after_done')).toHaveLength(1);
    expect(outcome.events.at(-1)?.type).toBe('done');
  });

  it('given a last line without its newline, then it still counts at a normal end', async () => {
    const outcome = await runTool('no-final-newline.sh');
    expect(outcome.ok).toBe(true);
    expect(outcome.state).toEqual({ a: 1 });
  });

  it('given a line that is not JSON after done, then it is only a violation', async () => {
    const outcome = await runTool('garbage-after-done.sh');
    expect(outcome.ok).toBe(true);
    expect(outcome.violations.map((v) => v.code)).toEqual(['protocol/after_done']);
  });

  it('given endless output after done, then the output cap still holds', async () => {
    const outcome = await runTool('garbage-after-done.sh', {
      argv: [...toolArgv('garbage-after-done.sh'), 'forever'],
      limits: { maxOutputBytes: 64 * 1024 },
    });
    expect(outcome.done).toEqual({ ok: true, summary: null });
    // Not the deadline's timeout: the cap stopped the endless output.
    expect(outcome.failure?.code).toBe('protocol/output_too_large');
    expect(outcome.signal).toBe('SIGKILL');
  });

  it('given a non-zero exit without done, then the exit code is the failure, with stderr kept for the trace', async () => {
    const outcome = await runTool('crash.sh');
    expect(outcome.exitCode).toBe(3);
    expect(outcome.failure).toEqual({
      code: 'protocol/exit_code',
      message: 'exited with code 3 without a done event',
    });
    expect(outcome.stderr).toContain('Traceback');
    expect(outcome.ok).toBe(false);
  });

  it('given a tool killed in the middle of a line, then the signal is the failure and the cut line only a note', async () => {
    const outcome = await runTool('dies-mid-line.sh');
    expect(outcome.signal).toBe('SIGKILL');
    expect(outcome.failure).toEqual({ code: 'protocol/signal', message: 'killed by SIGKILL before a done event' });
    expect(outcome.logs.map((l) => l.message)).toEqual(['before']);
    expect(outcome.violations.map((v) => v.code)).toEqual(['process/cut_line']);
    expect(outcome.violations[0]!.message).toContain('line 2 is not JSON');
  });

  it('given a tool that exits non-zero in the middle of a line, then the exit code is the failure', async () => {
    const outcome = await runTool('exits-mid-line.sh');
    expect(outcome.failure).toEqual({ code: 'protocol/exit_code', message: 'exited with code 7 without a done event' });
    expect(outcome.violations.map((v) => v.code)).toEqual(['process/cut_line']);
  });

  it('given a tool that exits 0 without done, then it fails with a clear reason', async () => {
    const outcome = await runTool('no-done.sh');
    expect(outcome.failure?.code).toBe('protocol/no_done');
    expect(outcome.failure?.message).toMatch(/without a done event \(after 1 event\)/);
    expect(outcome.logs).toHaveLength(1);
  });

  it('given a line that is not JSON, then it fails there and ignores the rest', async () => {
    const outcome = await runTool('bad-json.sh');
    expect(outcome.failure?.code).toBe('protocol/bad_json');
    expect(outcome.failure?.message).toContain('line 2');
    expect(outcome.done).toBeNull();
  });

  it('given a JSON line that is not an object, then it fails', async () => {
    const outcome = await runTool('not-object.sh');
    expect(outcome.failure?.code).toBe('protocol/not_object');
    expect(outcome.failure?.message).toContain('an array');
    expect(outcome.done).toBeNull();
  });

  it('given a known event with a missing field, then it fails naming the field', async () => {
    const outcome = await runTool('invalid-event.sh');
    expect(outcome.failure?.code).toBe('protocol/invalid_event');
    expect(outcome.failure?.message).toMatch(/\(log\) is invalid: message:/);
  });

  it('given a line longer than the limit, then it fails without waiting for the newline', async () => {
    const cwd = workDir();
    const outcome = await runTool('long-line.sh', { cwd, deadlineMs: 120_000, limits: { maxLineBytes: 1024 } });
    expect(outcome.failure?.code).toBe('protocol/line_too_long');
    expect(outcome.signal).toBe('SIGKILL');
    expect(sleptThrough(cwd)).toBe(false); // killed before its 30 s sleep (and the deadline) ended
  });

  it('given stderr noise, then stderr is kept apart from the protocol and bounded', async () => {
    const outcome = await runTool('stderr-noise.sh', { limits: { maxStderrBytes: 1024 } });
    expect(outcome.ok).toBe(true);
    expect(outcome.stderr.startsWith('NOISE-LINE-0 ')).toBe(true);
    expect(Buffer.byteLength(outcome.stderr)).toBe(1024);
    expect(outcome.stderrTruncated).toBe(true);
    expect(JSON.stringify(outcome.events)).not.toContain('NOISE');
  });

  it('given a tool that ignores SIGTERM, then at the deadline it gets SIGTERM and, after the grace, SIGKILL', async () => {
    const outcome = await runTool('trap-term.sh', { deadlineMs: 300, killGraceMs: 300 });
    expect(outcome.failure?.code).toBe('process/timeout');
    expect(outcome.signal).toBe('SIGKILL');
    expect(outcome.violations.map((v) => v.code)).toContain('process/sigkill');
    expect(outcome.stderr).toContain('got TERM'); // the TERM came first and it survived it
  });

  it('given a tool that honours SIGTERM, then the deadline ends it with SIGTERM alone', async () => {
    const cwd = workDir();
    const outcome = await runTool('sleeper.sh', { cwd, deadlineMs: 300, killGraceMs: 120_000 });
    expect(outcome.failure?.code).toBe('process/timeout');
    expect(outcome.signal).toBe('SIGTERM');
    expect(outcome.violations).toEqual([]);
    expect(outcome.logs.map((l) => l.message)).toEqual(['working']);
    expect(sleptThrough(cwd)).toBe(false);
  });

  it('given an abort signal, then the group is terminated and the outcome says so', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const cwd = workDir();
    const outcome = await runTool('sleeper.sh', { cwd, deadlineMs: 120_000, signal: controller.signal });
    expect(outcome.failure?.code).toBe('process/aborted');
    expect(sleptThrough(cwd)).toBe(false);
  });

  it('given a missing executable, then it fails to spawn with a message naming it', async () => {
    const cwd = workDir();
    const outcome = await runProcess({
      argv: ['/nonexistent/agent-tool', '--x'],
      cwd,
      env: minimalEnv(cwd),
      input: INPUT,
      deadlineMs: 1_000,
    });
    expect(outcome.failure?.code).toBe('process/spawn_failed');
    expect(outcome.failure?.message).toContain('"/nonexistent/agent-tool"');
    expect(outcome.failure?.message).toContain('ENOENT');
    expect(outcome.exitCode).toBeNull();
  });

  it('given a file that is not executable, then it fails to spawn with EACCES', async () => {
    const cwd = workDir();
    const script = join(cwd, 'tool.sh');
    writeFileSync(script, '#!/bin/sh\necho hi\n');
    chmodSync(script, 0o644);
    const outcome = await runProcess({
      argv: [script],
      cwd,
      env: minimalEnv(cwd),
      input: INPUT,
      deadlineMs: 1_000,
    });
    expect(outcome.failure?.code).toBe('process/spawn_failed');
    expect(outcome.failure?.message).toContain('EACCES');
  });
});

describe('minimalEnv', () => {
  it('given any server environment, then only PATH, LANG, HOME, TMPDIR, the protocol version and extras are passed', () => {
    process.env['TILTYARD_TEST_SECRET'] = 'nope';
    const env = minimalEnv('/work/seat1', { OPENAI_API_KEY: 'sk-test' });
    delete process.env['TILTYARD_TEST_SECRET'];
    expect(Object.keys(env).sort()).toEqual([
      'HOME',
      'LANG',
      'OPENAI_API_KEY',
      'PATH',
      'TILTYARD_PROTOCOL_VERSION',
      'TMPDIR',
    ]);
    expect(env).toMatchObject({
      HOME: '/work/seat1',
      TMPDIR: '/work/seat1',
      LANG: 'C.UTF-8',
      TILTYARD_PROTOCOL_VERSION: '0',
    });
    expect(env['PATH']).toBeTruthy();
  });
});
