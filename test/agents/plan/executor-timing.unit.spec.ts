import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { executePlan } from '../../../src/agents/plan/index.js';
import {
  byId,
  context,
  failing,
  fakeRunner,
  maxOverlap,
  outcome,
  plan,
  sleepUntilAborted,
  sleeping,
  untilAborted,
} from './support.js';

/** In-process fake tools against real timers: deadlines, plan timeout, cancellation, parallel dispatch. */
describe('executePlan — time', () => {
  it('gives each attempt min(tool timeout, what is left of the plan)', async () => {
    const { runTool, calls } = fakeRunner({ slow: sleeping(120) });
    await executePlan(
      plan(
        [
          { toolId: 'slow', timeoutMs: 10_000 },
          { toolId: 'quick', timeoutMs: 100 },
        ],
        { timeoutMs: 1_000 },
      ),
      // A clock that stands still: the first tool gets exactly what is left of the plan.
      { runTool, now: () => 0 },
      context,
    );
    expect(calls[0]!.deadlineMs).toBe(1_000);
    expect(calls[1]!.deadlineMs).toBe(100);
  });

  it('marks a tool that overruns its own timeout as timeout, after its retries', async () => {
    const { runTool, calls } = fakeRunner({ slow: sleeping(5_000) });
    const r = await executePlan(
      plan([{ toolId: 'slow', timeoutMs: 40, retryPolicy: { maxRetries: 1, backoffMs: 10 } }]),
      { runTool },
      context,
    );
    expect(calls).toHaveLength(2);
    expect(byId(r, 'slow')).toMatchObject({
      state: 'timeout',
      retryCount: 1,
      error: 'timed out after 40 ms',
    });
    expect(r.failureReason).toBe('tool "slow" timed out after 2 attempts: timed out after 40 ms');
  });

  it('aborts running tools when the plan times out and skips those that never started', async () => {
    // 'slow' never finishes unless aborted: the test ends only because the plan's timeout aborts it.
    const { runTool, calls } = fakeRunner({ slow: untilAborted() });
    const r = await executePlan(
      plan([{ toolId: 'fast' }, { toolId: 'slow' }, { toolId: 'later' }], { timeoutMs: 150 }),
      { runTool },
      context,
    );
    expect(calls.map((c) => c.toolId)).toEqual(['fast', 'slow']);
    expect(byId(r, 'slow')).toMatchObject({
      state: 'timeout',
      error: 'the plan timed out after 150 ms while attempt 1 was running',
    });
    expect(byId(r, 'later')).toMatchObject({
      state: 'skipped',
      error: 'the plan timed out after 150 ms before it started',
    });
    expect(r).toMatchObject({
      success: false,
      canReplan: true,
      failedTools: ['slow'],
      skippedTools: ['later'],
      state: { fast: true },
    });
    expect(r.failureReason).toBe('tool "slow" did not finish: the plan timed out after 150 ms');
  });

  it('counts an attempt that used up what was left of the plan as the plan timing out, whichever timer fires first', async () => {
    // 'first' moves the clock 100 of the plan's 150 ms on: 'slow' gets the 50 left, so its own
    // timer fires well before the plan's. That used to read as the tool's own timeout followed
    // by a retry wait; its deadline was the plan's, so the plan timed out.
    let t = 0;
    const { runTool, calls } = fakeRunner({
      first: () => ((t = 100), outcome(true, { first: true })),
      slow: untilAborted(),
    });
    const r = await executePlan(
      plan([{ toolId: 'first' }, { toolId: 'slow', timeoutMs: 10_000, retryPolicy: { maxRetries: 3, backoffMs: 10 } }], { timeoutMs: 150 }),
      { runTool, now: () => t },
      context,
    );
    expect(calls.map((c) => [c.toolId, c.deadlineMs])).toEqual([['first', 150], ['slow', 50]]);
    expect(byId(r, 'slow')).toMatchObject({
      state: 'timeout',
      retryCount: 0,
      error: 'the plan timed out after 150 ms while attempt 1 was running',
    });
    expect(r.failureReason).toBe('tool "slow" did not finish: the plan timed out after 150 ms');
  });

  it('stops waiting for a retry when the plan times out during the backoff', async () => {
    // The retry wait never ends on its own: the test ends only because the plan's timeout cuts it.
    const { runTool, calls } = fakeRunner({ bad: failing() });
    const r = await executePlan(
      plan([{ toolId: 'bad', retryPolicy: { maxRetries: 3, backoffMs: 5_000 } }], {
        timeoutMs: 100,
      }),
      { runTool, sleep: sleepUntilAborted },
      context,
    );
    expect(calls).toHaveLength(1);
    expect(byId(r, 'bad').state).toBe('timeout');
    expect(byId(r, 'bad').error).toContain('while waiting to retry');
  });

  it('given the caller cancels, then running tools stop and replanning is ruled out', async () => {
    const { runTool } = fakeRunner({ slow: sleeping(5_000) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const r = await executePlan(
      plan([{ toolId: 'slow' }, { toolId: 'next' }]),
      { runTool },
      { ...context, signal: controller.signal },
    );
    expect(r).toMatchObject({ success: false, canReplan: false });
    expect(byId(r, 'slow').state).toBe('failed');
    expect(byId(r, 'next')).toMatchObject({
      state: 'skipped',
      error: 'the plan was cancelled before it started',
    });
  });
});

describe('executePlan — parallel plans (in-process tools)', () => {
  const cores = availableParallelism();

  it('never runs more async tools at once than the cores, whatever concurrency asks for', async () => {
    const { runTool, calls } = fakeRunner(
      Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => [id, sleeping(30)])),
    );
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const r = await executePlan(
      plan(
        ids.map((toolId) => ({ toolId, async: true })),
        { parallel: true },
      ),
      { runTool, concurrency: 64 },
      context,
    );
    expect(r.success).toBe(true);
    expect(maxOverlap(calls)).toBe(Math.min(cores, ids.length));
    expect(r.trace[0]!.data['concurrency']).toBe(cores);
  });

  it('runs a non-async tool alone, and nothing after it starts before it ends', async () => {
    const { runTool, calls } = fakeRunner({
      a: sleeping(30),
      b: sleeping(30),
      gate: sleeping(30),
      c: sleeping(30),
    });
    const p = plan(
      [
        { toolId: 'a', async: true },
        { toolId: 'b', async: true },
        { toolId: 'gate' },
        { toolId: 'c', async: true },
      ],
      { parallel: true },
    );
    await executePlan(p, { runTool, concurrency: 2 }, context);
    const gate = calls.find((c) => c.toolId === 'gate')!;
    for (const c of calls.filter((x) => x.toolId !== 'gate'))
      expect(c.end <= gate.start || c.start >= gate.end).toBe(true);
  });

  it('merges state in topological order however the tools finish', async () => {
    const { runTool } = fakeRunner({
      slow: sleeping(60, { winner: 'slow' }),
      fast: sleeping(5, { winner: 'fast' }),
    });
    const p = plan(
      [
        { toolId: 'slow', async: true },
        { toolId: 'fast', async: true },
      ],
      { parallel: true },
    );
    const r = await executePlan(p, { runTool, concurrency: 2 }, context);
    expect(r.state).toEqual({ winner: 'fast' });
    expect(r.toolResults.map((t) => t.toolId)).toEqual(['slow', 'fast']);
  });

  it.skipIf(cores < 2)(
    'records a dependency wait when an async tool is held back by a running dependency',
    async () => {
      const { runTool, calls } = fakeRunner({ base: sleeping(40), side: sleeping(10) });
      const p = plan(
        [
          { toolId: 'base', async: true },
          { toolId: 'top', async: true, dependencies: ['base'] },
          { toolId: 'side', async: true },
        ],
        { parallel: true },
      );
      const r = await executePlan(p, { runTool, concurrency: 2 }, context);
      expect(r.trace.find((e) => e.type === 'dependency_wait')).toMatchObject({
        toolId: 'top',
        data: { waitingFor: ['base'] },
      });
      // side did not wait behind top.
      expect(calls.find((c) => c.toolId === 'side')!.start).toBeLessThan(
        calls.find((c) => c.toolId === 'base')!.end,
      );
    },
  );
});
