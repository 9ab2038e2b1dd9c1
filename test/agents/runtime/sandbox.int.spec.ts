import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InvocationOutcome } from '../../../src/agents/runtime/outcome.js';
import { minimalEnv, runProcess, type ProcessSpec } from '../../../src/agents/runtime/process-runner.js';
import { PersistentProcess } from '../../../src/agents/runtime/persistent-process.js';
import { sandboxAvailability, sandboxDecision, sandboxSettings } from '../../../src/agents/sandbox/index.js';
import { collectSamples } from '../../../src/check/samples.js';
import { parseAgentSpec } from '../../../src/agents/seat/agent-spec.js';
import { createSeat } from '../../../src/agents/seat/create-seat.js';
import type { SeatDecision } from '../../../src/agents/seat/types.js';
import type { JsonObject } from '../../../src/protocol/index.js';

/**
 * Containment, with real processes in the real sandbox. Each test is a hostile agent that succeeds
 * unconfined (TILTYARD_SANDBOX=off makes every one of them fail). The hostile fixtures are bounded
 * (a fork bomb of 200 sleeps, 512 MiB) so a broken sandbox cannot take the machine down.
 */
const FIXTURES = fileURLToPath(new URL('../fixtures/sandbox/', import.meta.url));
const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const dirs: string[] = [];
const markers: string[] = [];
const junk: string[] = [];

function dir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Host pids of processes whose command line holds `marker`. */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * Whether no process holds `marker` any more, looking up to `attempts` times 50 ms apart: the
 * kernel kills a dead namespace's processes asynchronously, while an escaped grandchild sleeps
 * for over an hour, so this cannot pass by luck.
 */
async function goneEventually(marker: string, attempts = 200): Promise<number[]> {
  let left = processesWith(marker);
  for (let i = 0; left.length > 0 && i < attempts; i++) {
    await new Promise((r) => setTimeout(r, 50));
    left = processesWith(marker);
  }
  return left;
}

afterEach(() => {
  for (const marker of markers.splice(0)) for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL');
  for (const path of junk.splice(0)) rmSync(path, { force: true });
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function run(script: string, input: JsonObject, over: Partial<ProcessSpec> = {}): Promise<InvocationOutcome> {
  const cwd = over.cwd ?? dir('tiltyard-seat-');
  return runProcess({
    argv: ['python3', join(FIXTURES, script)],
    cwd,
    env: minimalEnv(cwd),
    input: { requestId: 'r1', tool: 'hostile', operation: 'action', input },
    deadlineMs: 20_000,
    ...over,
  });
}

async function probe(input: JsonObject, over: Partial<ProcessSpec> = {}): Promise<Record<string, string>> {
  const outcome = await run('probe.py', input, over);
  expect(outcome.failure).toBeNull();
  return outcome.state['results'] as Record<string, string>;
}

const failed = (results: Record<string, string>) => Object.values(results).every((r) => r.startsWith('error '));

beforeAll(() => {
  // CI installs bubblewrap: without it these tests must fail, not skip.
  expect(sandboxAvailability()).toMatchObject({ ok: true });
  expect(sandboxDecision().kind).toBe('bwrap');
});

describe('the agent sandbox (bubblewrap)', () => {
  it('given a setsid double-forked grandchild, then it is gone when the invocation ends', async () => {
    const marker = `${4000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    markers.push(marker);
    const outcome = await run('double-fork.py', { marker });
    expect(outcome.ok).toBe(true);
    expect(await goneEventually(marker)).toEqual([]);
  });

  it("given an agent reading the server's /proc/<pid>/environ, cmdline and mem, then every read fails", async () => {
    const pid = process.pid;
    const results = await probe({ read: [`/proc/${pid}/environ`, `/proc/${pid}/cmdline`, `/proc/${pid}/mem`] });
    expect(Object.keys(results)).toHaveLength(3);
    expect(failed(results)).toBe(true);
  });

  it("given an agent reading the data folder, the project root and another seat's work dir, then it sees none of them", async () => {
    const data = dir('tiltyard-data-');
    writeFileSync(join(data, 'games.db'), 'hidden hands');
    const otherSeat = dir('tiltyard-seat-');
    writeFileSync(join(otherSeat, 'plan.json'), 'secret plan');
    const results = await probe({
      read: [join(data, 'games.db'), join(PROJECT_ROOT, 'package.json'), join(otherSeat, 'plan.json'), '/root/.bashrc'],
      list: [data, otherSeat],
    });
    expect(Object.keys(results)).toHaveLength(6);
    expect(results).toSatisfy(failed);
    // The project root itself is at most the empty skeleton leading to the fixture folder.
    const root = await probe({ list: [PROJECT_ROOT] });
    expect(Object.values(root)[0]).not.toMatch(/package\.json|src|node_modules/);
  });

  it('given an agent writing outside its work dir, then nothing lands outside, and its own work dir takes the write', async () => {
    const cwd = dir('tiltyard-seat-');
    const otherSeat = dir('tiltyard-seat-');
    const inRoot = join(PROJECT_ROOT, `pwned-${process.pid}`);
    junk.push(inRoot);
    const results = await probe({ write: [join(otherSeat, 'pwned'), inRoot, join(cwd, 'mine')] }, { cwd });
    expect(results[`write ${join(cwd, 'mine')}`]).toMatch(/^ok /);
    expect(existsSync(join(cwd, 'mine'))).toBe(true);
    expect(results[`write ${join(otherSeat, 'pwned')}`]).toMatch(/^error /);
    expect(results[`write ${inRoot}`]).toMatch(/^error /);
    expect(existsSync(join(otherSeat, 'pwned'))).toBe(false);
    expect(existsSync(inRoot)).toBe(false);
  });

  it('given no network opt-in, then a TCP connection to 127.0.0.1:5432 fails and is flagged', async () => {
    const denied = await run('probe.py', { connect: [['127.0.0.1', 5432]] });
    expect(denied.state['results']).toEqual({ 'connect 127.0.0.1:5432': expect.stringMatching(/^error /) });
    expect(denied.violations.map((v) => v.code)).toContain('sandbox/network_denied');
  });

  it('given a memory hog over its limit, then its allocation fails, the invocation fails and the limit is named', async () => {
    const outcome = await run('memory-hog.py', { mb: 512 }, { sandbox: { memoryBytes: 128 * 1024 * 1024 } });
    expect(outcome.ok).toBe(false);
    expect(outcome.failure?.code).toBe('protocol/exit_code');
    expect(outcome.state).toEqual({});
    expect(outcome.stderr).toContain('MemoryError');
    expect(outcome.violations.map((v) => v.code)).toContain('sandbox/memory_limit');
  });

  it('given a memory-hog skill at a seat (memory_mb 128), then each invocation is stopped at its limit and the seat falls back to its fallback agent', async () => {
    const spec = parseAgentSpec(`skill:${fileURLToPath(new URL('../fixtures/skills/memory-hog', import.meta.url))}`);
    if (!spec.ok || spec.agent.kind !== 'skill') throw new Error(spec.ok ? 'not a skill' : spec.message);
    const seat = createSeat(spec.agent, { gameSeed: 1, seat: 0, trace: true, workRoot: dir('tiltyard-agents-') });
    const request = collectSamples(1).find((s) => s.case === 'action')!.request;
    try {
      const answers: SeatDecision[] = [];
      for (let i = 0; i < 4; i++) answers.push(await seat.decide(request));
      const observed = (i: number) => answers[i]!.trace!.stages.find((s) => s.stage === 'observe')?.payload['violations'] as Array<{ code: string }>;
      for (const i of [0, 1, 2]) {
        expect(answers[i]!.decision).toBeUndefined();
        expect(answers[i]!.trace!.failure?.code).toBe('protocol/exit_code');
        expect(observed(i).map((v) => v.code)).toContain('sandbox/memory_limit');
      }
      expect(answers[2]!.trace!.health).toBe('permanentFailure');
      expect(answers[3]!.trace!.fallback).toBe('agent:random');
      expect(answers[3]!.decision).toBeDefined();
    } finally {
      await seat.close();
    }
  });

  it('given an agent spinning on the CPU, then the CPU-time limit kills it before its deadline, and says so', async () => {
    const outcome = await run('cpu-spin.py', {}, { deadlineMs: 60_000, sandbox: { cpuSeconds: 1 } });
    expect(outcome.failure?.code).toBe('protocol/signal');
    expect(outcome.signal).toBe('SIGXCPU');
    expect(outcome.violations.map((v) => v.code)).toContain('sandbox/cpu_limit');
  });

  it('given a fork bomb, then it is stopped at the process limit', async () => {
    const outcome = await run('fork-bomb.py', { tries: 200 }, { sandbox: { processes: 16 } });
    expect(outcome.ok).toBe(true);
    expect(outcome.state['started']).toBeLessThan(16);
    expect(outcome.violations.map((v) => v.code)).toContain('sandbox/process_limit');
  });

  it('given a persistent agent that double-forks, then its grandchild dies with the process at close', async () => {
    const cwd = dir('tiltyard-seat-');
    const marker = `${5000 + Math.floor(Math.random() * 1000)}.${process.pid}`;
    markers.push(marker);
    const agent = new PersistentProcess({ argv: ['python3', join(FIXTURES, 'double-fork.py')], cwd, env: minimalEnv(cwd) });
    const outcome = await agent.request({ requestId: 'r1', tool: 'hostile', operation: 'action', input: { marker } }, 20_000);
    expect(outcome.done?.ok).toBe(true);
    await agent.close();
    expect(await goneEventually(marker)).toEqual([]);
  });
});

describe('the sandbox policy', () => {
  it('given TILTYARD_SANDBOX=off, then the same probe reads the project root (what the sandbox prevents)', async () => {
    const results = await probe(
      { read: [join(PROJECT_ROOT, 'package.json')] },
      { sandbox: { settings: { ...sandboxSettings({}), mode: 'off' } } },
    );
    expect(Object.values(results)[0]).toMatch(/^ok /);
  });

  it('given a work dir the sandbox will run in, then the agent can write there and the server can clean it up', async () => {
    const cwd = dir('tiltyard-seat-');
    mkdirSync(join(cwd, 'sub'));
    const results = await probe({ write: [join(cwd, 'a.txt')] }, { cwd });
    expect(Object.values(results)[0]).toMatch(/^ok /);
    rmSync(cwd, { recursive: true });
    expect(existsSync(cwd)).toBe(false);
  });
});
