import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { minimalEnv, runProcess } from '../../../src/agents/runtime/process-runner.js';
import { PersistentProcess } from '../../../src/agents/runtime/persistent-process.js';
import { MIB, sandboxDecision, sandboxSettings } from '../../../src/agents/sandbox/index.js';
import type { JsonObject } from '../../../src/protocol/index.js';

/**
 * The work dir's disk quota, with real processes in the real sandbox: an agent that writes without
 * bound is stopped at its quota (8 MiB here) and its work dir emptied. The filler writes 1 MiB
 * files, at most `files` of them, so a broken quota cannot fill this machine's disk.
 */
const FILLER = fileURLToPath(new URL('../fixtures/sandbox/disk-filler.py', import.meta.url));
const settings = { ...sandboxSettings({}), diskBytes: 8 * MIB };
const dirs: string[] = [];

function dir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tiltyard-seat-'));
  dirs.push(d);
  return d;
}

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

beforeAll(() => {
  // CI installs bubblewrap: without it these tests must fail, not skip.
  expect(sandboxDecision().kind).toBe('bwrap');
});

function fill(cwd: string, input: JsonObject) {
  return runProcess({
    argv: ['python3', FILLER],
    cwd,
    env: minimalEnv(cwd),
    input: { requestId: 'r1', tool: 'filler', operation: 'action', input },
    deadlineMs: 120_000,
    sandbox: { settings },
  });
}

describe("the work dir's disk quota", () => {
  it('given an agent writing file after file without end, then it is stopped at its quota while it runs, the invocation fails with sandbox/disk_quota, and its work dir is emptied', async () => {
    const cwd = dir();
    // 400 MiB at most, then it sits there until the deadline: only the quota stops it before.
    const outcome = await fill(cwd, { files: 400, mb: 1, sleep: 3600 });
    expect(outcome.failure).toEqual({ code: 'sandbox/disk_quota', message: expect.stringMatching(/more than 8 MiB .*disk quota \(TILTYARD_SANDBOX_DISK_MB\): the agent was stopped and its work dir emptied/) });
    expect(outcome.done).toBeNull();
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('given one file larger than the quota, then the write past it is refused (RLIMIT_FSIZE), and the limit is named', async () => {
    const cwd = dir();
    const outcome = await fill(cwd, { files: 1, mb: 16 });
    expect(outcome.state).toMatchObject({ written_mb: 8, error: expect.stringMatching(/File too large/) });
    expect(outcome.done).toEqual({ ok: false, summary: null });
    expect(outcome.violations.map((v) => v.code)).toContain('sandbox/disk_quota');
    // The file got as far as the quota, not a byte more.
    expect(statSync(join(cwd, 'fill-r1-0')).size).toBe(8 * MIB);
  });

  it('given an agent that stays within its quota, then its files stay for its next invocation', async () => {
    const cwd = dir();
    expect((await fill(cwd, { files: 3, mb: 1 })).failure).toBeNull();
    const again = await fill(cwd, { files: 0 });
    expect(again.failure).toBeNull();
    expect(again.state['seen']).toEqual(['fill-r1-0', 'fill-r1-1', 'fill-r1-2']);
    expect(statSync(join(cwd, 'fill-r1-0')).size).toBe(MIB);
  });

  it('given a persistent agent that fills its work dir in one request, then that request fails at the quota, and the next one starts a fresh process in an emptied work dir', async () => {
    const cwd = dir();
    const agent = new PersistentProcess({ argv: ['python3', FILLER], cwd, env: minimalEnv(cwd), sandbox: { settings } });
    try {
      const full = await agent.request({ requestId: 'r1', tool: 'filler', operation: 'action', input: { files: 12, mb: 1 } }, 120_000);
      expect(full.failure?.code).toBe('sandbox/disk_quota');
      const next = await agent.request({ requestId: 'r2', tool: 'filler', operation: 'action', input: { files: 1, mb: 1 } }, 120_000);
      expect(next.failure).toBeNull();
      expect(next.state['seen']).toEqual(['fill-r2-0']);
    } finally {
      await agent.close();
    }
    expect(existsSync(cwd)).toBe(true);
  });
});
