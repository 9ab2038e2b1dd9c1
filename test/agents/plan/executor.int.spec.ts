import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { executePlan, runWithReplan } from '../../../src/agents/plan/index.js';
import { ExecutionResult, PlanJson, type PlanJsonInput } from '../../../src/protocol/index.js';
import { byId, context, maxOverlap } from './support.js';
import {
  cleanupDirs,
  fixtureTool,
  intervals,
  processPorts,
  readLog,
  workDir,
} from './process-tools.js';

/** Real processes: python3 and sh fixtures in test/agents/fixtures/plan, run by runProcess. */
const plan = (input: Omit<PlanJsonInput, 'requestId'>) =>
  PlanJson.parse({ requestId: 'plan-int', ...input });
const cores = availableParallelism();
/** What an echo-deps tool received as `dependencies`. */
const echoed = (r: ExecutionResult, id: string): unknown =>
  JSON.parse((byId(r, id).output['echoed'] as Record<string, string>)[id]!);

afterEach(cleanupDirs);

describe('executePlan with real tools — graph and data flow', () => {
  it('given a cycle, then no process starts and the failure names the path', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool('look', 'sleeper.py', {}, { dependencies: ['act'] }),
        fixtureTool('think', 'sleeper.py', {}, { dependencies: ['look'] }),
        fixtureTool('act', 'sleeper.py', {}, { dependencies: ['think'] }),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(readLog(dir, 'runs.log')).toEqual([]);
    expect(r).toMatchObject({ success: false, canReplan: true });
    expect(r.failureReason).toContain('dependency cycle: look → act → think → look');
  });

  it("gives each tool its dependencies' merged states and merges every state in topological order", async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool('echo', 'echo-deps.py', {}, { dependencies: ['left', 'right'] }),
        fixtureTool('left', 'sleeper.py', { ms: 10, patch: { side: 'left', seen: { left: 1 } } }),
        fixtureTool('right', 'sleeper.py', {
          ms: 10,
          patch: { side: 'right', seen: { right: 2 } },
        }),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(r.success).toBe(true);
    expect(echoed(r, 'echo')).toEqual({
      left: { side: 'left', seen: { left: 1 } },
      right: { side: 'right', seen: { right: 2 } },
    });
    expect(r.state).toMatchObject({ side: 'right', seen: { left: 1, right: 2 } });
    expect(
      r.trace
        .filter((e) => e.type === 'event_received' && e.toolId === 'echo')
        .map((e) => (e.data['event'] as { type: string }).type),
    ).toEqual(['log', 'state_patch', 'done']);
    expect(ExecutionResult.safeParse(r).success).toBe(true);
  });
});

describe('executePlan with real tools — retries', () => {
  it('retries a tool that fails twice, waiting backoffMs × 2^(attempt−1) between attempts', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool(
          'flaky',
          'flaky.py',
          { failTimes: 2 },
          { retryPolicy: { maxRetries: 3, backoffMs: 50 } },
        ),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);

    expect(byId(r, 'flaky')).toMatchObject({
      state: 'completed',
      retryCount: 2,
      output: { flaky: { runs: 3 } },
    });
    const starts = readLog<{ run: number; start: number }>(dir, 'starts.log').map((l) => l.start);
    expect(starts).toHaveLength(3);
    const gaps = [starts[1]! - starts[0]!, starts[2]! - starts[1]!];
    // Each gap is the failed run's remaining life + the backoff + starting the next process, so
    // the backoff is a floor; how much more a loaded machine adds is not this test's business.
    expect(gaps[0]).toBeGreaterThanOrEqual(50);
    expect(gaps[1]).toBeGreaterThanOrEqual(100);
    expect(r.trace.filter((e) => e.type === 'retry').map((e) => e.data['delayMs'])).toEqual([
      50, 100,
    ]);
    expect(r.trace.find((e) => e.type === 'tool_failed')!.data).toMatchObject({
      code: 'protocol/exit_code',
      exitCode: 1,
      stderr: 'run 1: failing on purpose\n',
    });
  });

  it('fails the plan when the retries run out', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool(
          'flaky',
          'flaky.py',
          { failTimes: 5 },
          { retryPolicy: { maxRetries: 1, backoffMs: 10 } },
        ),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(readLog(dir, 'starts.log')).toHaveLength(2);
    expect(r).toMatchObject({ success: false, failedTools: ['flaky'], canReplan: true });
    expect(r.failureReason).toMatch(/^tool "flaky" failed after 2 attempts: protocol\/exit_code/);
  });
});

describe('executePlan with real tools — failure propagation', () => {
  const once = { retryPolicy: { maxRetries: 0, backoffMs: 0 } };

  it('given a required tool that refuses, then its dependents never start and the plan fails', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool('refuser', 'refuse.sh', {}, once),
        fixtureTool('next', 'sleeper.py', { ms: 1 }, { dependencies: ['refuser'] }),
        fixtureTool('last', 'sleeper.py', { ms: 1 }, { dependencies: ['next'] }),
        fixtureTool('free', 'sleeper.py', { ms: 1 }),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(intervals(dir).map((i) => i.tool)).toEqual(['free']);
    expect(r).toMatchObject({
      success: false,
      failedTools: ['refuser'],
      skippedTools: ['next', 'last'],
    });
    expect(byId(r, 'refuser').error).toBe(
      'reported failure (done ok:false): refused [E_REFUSED: refusing on purpose]',
    );
  });

  it('given an optional tool that refuses, then its dependents get null for it and the plan succeeds', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool('hint', 'refuse.sh', {}, { ...once, required: false }),
        fixtureTool('look', 'sleeper.py', { ms: 1, patch: { seen: 3 } }),
        fixtureTool('act', 'echo-deps.py', {}, { dependencies: ['hint', 'look'] }),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(r).toMatchObject({ success: true, failedTools: ['hint'] });
    expect(echoed(r, 'act')).toEqual({ hint: null, look: { seen: 3 } });
  });

  it('given a disabled skill, then its tools never start', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool('oracle', 'sleeper.py', { ms: 1 }, { skill: 'seer', required: false }),
        fixtureTool('act', 'echo-deps.py', {}, { dependencies: ['oracle'] }),
      ],
      disabledSkills: ['seer'],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(intervals(dir)).toEqual([]);
    expect(byId(r, 'oracle')).toMatchObject({ state: 'skipped', error: 'skill disabled' });
    expect(r.success).toBe(true);
    expect(echoed(r, 'act')).toEqual({ oracle: null });
  });
});

describe('executePlan with real tools — concurrency', () => {
  // Long enough that a slow interpreter start under load cannot hide a real overlap.
  const sleepers = (n: number, extra: object) =>
    Array.from({ length: n }, (_, i) => fixtureTool(`s${i}`, 'sleeper.py', { ms: 400 }, extra));

  it('runs async tools of a parallel plan at the same time, never more than the limit', async () => {
    const dir = workDir();
    const limit = Math.min(2, cores);
    const r = await executePlan(
      plan({ tools: sleepers(4, { async: true }), parallel: true }),
      processPorts(dir, { concurrency: 2 }),
      context,
    );
    expect(r.success).toBe(true);
    const runs = intervals(dir);
    expect(runs).toHaveLength(4);
    expect(maxOverlap(runs)).toBe(limit);
  });

  it('never overlaps the tools of a sequential plan, async or not', async () => {
    const dir = workDir();
    const r = await executePlan(
      plan({ tools: sleepers(3, { async: true }) }),
      processPorts(dir, { concurrency: 4 }),
      context,
    );
    expect(r.success).toBe(true);
    expect(maxOverlap(intervals(dir))).toBe(1);
  });

  it('runs a non-async tool of a parallel plan alone', async () => {
    const dir = workDir();
    const tools = [
      ...sleepers(2, { async: true }),
      fixtureTool('alone', 'sleeper.py', { ms: 300 }),
      fixtureTool('after', 'sleeper.py', { ms: 300 }, { async: true }),
    ];
    await executePlan(
      plan({ tools, parallel: true }),
      processPorts(dir, { concurrency: 2 }),
      context,
    );
    const runs = intervals(dir);
    const alone = runs.find((r) => r.tool === 'alone')!;
    for (const other of runs.filter((r) => r.tool !== 'alone'))
      expect(other.end <= alone.start || other.start >= alone.end).toBe(true);
  });
});

describe('executePlan with real tools — timeouts', () => {
  it('kills a tool that overruns its timeoutMs and marks it timeout', async () => {
    const dir = workDir();
    const p = plan({
      tools: [
        fixtureTool(
          'slow',
          'sleeper.py',
          { ms: 10_000 },
          { timeoutMs: 300, retryPolicy: { maxRetries: 0, backoffMs: 0 } },
        ),
      ],
    });
    const r = await executePlan(p, processPorts(dir), context);
    expect(byId(r, 'slow')).toMatchObject({ state: 'timeout', error: 'timed out after 300 ms' });
    // Killed mid-sleep: it never logged an end (nor, on a very slow start, even a start). Had it
    // not been killed, it would have slept its 10 s to the end and logged it.
    expect(intervals(dir).every((i) => Number.isNaN(i.end))).toBe(true);
    expect(r).toMatchObject({ success: false, failedTools: ['slow'], canReplan: true });
  });

  it('stops the plan at its timeoutMs: the running tool is killed, the rest never start', async () => {
    const dir = workDir();
    // No quick tool before 'slow': whether one would finish inside the plan's budget on a loaded
    // machine is a race; tools running in order are covered above.
    const p = plan({
      tools: [
        fixtureTool('slow', 'sleeper.py', { ms: 10_000 }),
        fixtureTool('never', 'sleeper.py', { ms: 10 }),
      ],
      timeoutMs: 800,
    });
    const r = await executePlan(p, processPorts(dir), context);
    const ran = intervals(dir);
    expect(ran.map((i) => i.tool)).not.toContain('never');
    expect(ran.every((i) => Number.isNaN(i.end))).toBe(true);
    expect(byId(r, 'slow').state).toBe('timeout');
    expect(byId(r, 'never')).toMatchObject({
      state: 'skipped',
      error: 'the plan timed out after 800 ms before it started',
    });
    expect(r.failureReason).toBe('tool "slow" did not finish: the plan timed out after 800 ms');
  });
});

describe('runWithReplan with real tools', () => {
  it('disables the skill that failed in execution 1 and succeeds in generation 2 without it', async () => {
    const dir = workDir();
    const seen: string[][] = [];
    const out = await runWithReplan(
      ({ attempt, disabledSkills }) => {
        seen.push(disabledSkills);
        const useBrittle = !disabledSkills.includes('brittle');
        return {
          requestId: `plan-g${attempt}`,
          tools: [
            useBrittle
              ? fixtureTool(
                  'decide',
                  'refuse.sh',
                  {},
                  { skill: 'brittle', retryPolicy: { maxRetries: 0, backoffMs: 0 } },
                )
              : fixtureTool(
                  'decide',
                  'sleeper.py',
                  { ms: 1, patch: { decision: 'pass' } },
                  { skill: 'steady' },
                ),
          ],
        };
      },
      (p) => executePlan(p, processPorts(dir), context),
    );
    expect(seen).toEqual([[], ['brittle']]);
    expect(out).toMatchObject({
      executions: 2,
      generations: 2,
      exhausted: false,
      disabledSkills: ['brittle'],
    });
    expect(out.result).toMatchObject({ success: true, state: { decision: 'pass' } });
  });
});
