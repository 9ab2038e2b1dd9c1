import { describe, expect, it } from 'vitest';
import { executePlan } from '../../../src/agents/plan/index.js';
import { ExecutionResult } from '../../../src/protocol/index.js';
import { byId, context, failed, failing, fakeRunner, outcome, plan } from './support.js';

/** In-process fake tools: order, data flow, retries, propagation and port misbehaviour. */
describe('executePlan — order, inputs and state (in-process tools)', () => {
  it("given a chain, then tools run in topological order and each gets the seat request, its params and its dependencies' outputs", async () => {
    const { runTool, calls } = fakeRunner({
      look: () => outcome(true, { seen: ['card'], mood: 'calm' }),
      think: () => outcome(true, { mood: 'bold' }),
    });
    const p = plan([
      { toolId: 'act', dependencies: ['think', 'look'], input: { style: 'loud' } },
      { toolId: 'think', dependencies: ['look'] },
      { toolId: 'look' },
    ]);
    const r = await executePlan(p, { runTool }, context);

    expect(calls.map((c) => c.toolId)).toEqual(['look', 'think', 'act']);
    expect(calls[2]!.input).toEqual({
      requestId: 'plan-1/act#1',
      tool: 'act',
      operation: 'main_action',
      input: {
        request_id: 'req-1',
        seat: 'plr_1',
        params: { style: 'loud' },
        dependencies: { think: { mood: 'bold' }, look: { seen: ['card'], mood: 'calm' } },
      },
    });
    expect(r).toMatchObject({
      success: true,
      failureReason: null,
      canReplan: false,
      failedTools: [],
      skippedTools: [],
    });
    expect(r.toolResults.map((t) => t.toolId)).toEqual(['look', 'think', 'act']);
    // Merged in topological order: think's mood overrides look's.
    expect(r.state).toEqual({ seen: ['card'], mood: 'bold', act: true });
    expect(ExecutionResult.safeParse(r).success).toBe(true);
  });

  it('given a plan of one tool, then the trace tells the whole story in order', async () => {
    const { runTool } = fakeRunner();
    const r = await executePlan(
      plan([{ toolId: 'solo' }]),
      { runTool, clock: () => '2026-01-01T00:00:00.000Z' },
      context,
    );
    expect(r.trace.map((e) => e.type)).toEqual([
      'plan_started',
      'tool_started',
      'event_received',
      'event_received',
      'tool_completed',
      'plan_finished',
    ]);
    expect(r.trace[0]!.data).toMatchObject({
      planId: 'plan-1',
      order: ['solo'],
      parallel: false,
      agent: 'council',
    });
    expect(r.trace.every((e) => e.ts === '2026-01-01T00:00:00.000Z')).toBe(true);
  });
});

describe('executePlan — invalid graphs', () => {
  it('given a cycle, then nothing runs and the result names the cycle', async () => {
    const { runTool, calls } = fakeRunner();
    const r = await executePlan(
      plan([
        { toolId: 'a', dependencies: ['b'] },
        { toolId: 'b', dependencies: ['a'] },
        { toolId: 'c' },
      ]),
      { runTool },
      context,
    );
    expect(calls).toEqual([]);
    expect(r).toMatchObject({
      success: false,
      canReplan: true,
      skippedTools: ['a', 'b', 'c'],
      failedTools: [],
    });
    expect(r.failureReason).toContain('a → b → a');
    expect(r.trace.at(-1)).toMatchObject({
      type: 'plan_finished',
      data: { code: 'plan/cycle', cycle: ['a', 'b', 'a'] },
    });
  });

  it('given an unknown dependency, then nothing runs', async () => {
    const { runTool, calls } = fakeRunner();
    const r = await executePlan(
      plan([{ toolId: 'a', dependencies: ['ghost'] }]),
      { runTool },
      context,
    );
    expect(calls).toEqual([]);
    expect(r.failureReason).toContain('"ghost"');
  });
});

describe('executePlan — retries', () => {
  it('retries a failing tool with backoff 50, 100, 200 ms and succeeds on the fourth attempt', async () => {
    const delays: number[] = [];
    const { runTool, calls } = fakeRunner({
      flaky: ({ attempt }) => (attempt < 4 ? failed() : outcome(true, { n: attempt })),
    });
    const sleep = (ms: number) => {
      delays.push(ms);
      return Promise.resolve();
    };
    const r = await executePlan(
      plan([{ toolId: 'flaky', retryPolicy: { maxRetries: 3, backoffMs: 50 } }]),
      { runTool, sleep },
      context,
    );
    expect(delays).toEqual([50, 100, 200]);
    expect(calls.map((c) => c.input.requestId)).toEqual([
      'plan-1/flaky#1',
      'plan-1/flaky#2',
      'plan-1/flaky#3',
      'plan-1/flaky#4',
    ]);
    expect(byId(r, 'flaky')).toMatchObject({ state: 'completed', retryCount: 3, output: { n: 4 } });
    expect(r.trace.filter((e) => e.type === 'retry').map((e) => e.data)).toMatchObject([
      { attempt: 2, delayMs: 50 },
      { attempt: 3, delayMs: 100 },
      { attempt: 4, delayMs: 200 },
    ]);
    expect(r.trace.filter((e) => e.type === 'tool_failed').map((e) => e.data['willRetry'])).toEqual(
      [true, true, true],
    );
  });

  it('gives up after maxRetries + 1 attempts and explains why in the failure reason', async () => {
    const { runTool, calls } = fakeRunner({
      bad: failing('protocol/exit_code', 'exited with code 3'),
    });
    const r = await executePlan(
      plan([{ toolId: 'bad', retryPolicy: { maxRetries: 2, backoffMs: 0 } }]),
      { runTool },
      context,
    );
    expect(calls).toHaveLength(3);
    expect(byId(r, 'bad')).toMatchObject({
      state: 'failed',
      retryCount: 2,
      error: 'protocol/exit_code: exited with code 3',
    });
    expect(r).toMatchObject({ success: false, canReplan: true, failedTools: ['bad'] });
    expect(r.failureReason).toBe(
      'tool "bad" failed after 3 attempts: protocol/exit_code: exited with code 3',
    );
  });

  it("reports a tool's own done {ok:false} with its summary and error event", async () => {
    const { runTool } = fakeRunner({
      no: () =>
        outcome(
          false,
          {},
          {
            done: { ok: false, summary: 'no legal move' },
            errors: [
              { version: '0', type: 'error', errorCode: 'E_RULES', errorMessage: 'hand is empty' },
            ],
          },
        ),
    });
    const r = await executePlan(
      plan([{ toolId: 'no', retryPolicy: { maxRetries: 0 } }]),
      { runTool },
      context,
    );
    expect(byId(r, 'no').error).toBe(
      'reported failure (done ok:false): no legal move [E_RULES: hand is empty]',
    );
  });
});

describe('executePlan — failure propagation', () => {
  const noRetry = { maxRetries: 0, backoffMs: 0 };

  it('given a required tool that fails, then its transitive dependents are skipped, not run, and the plan fails', async () => {
    const { runTool, calls } = fakeRunner({ b: failing() });
    const p = plan([
      { toolId: 'a' },
      { toolId: 'b', dependencies: ['a'], retryPolicy: noRetry },
      { toolId: 'c', dependencies: ['b'], required: false },
      { toolId: 'd', dependencies: ['c'] },
      { toolId: 'e', dependencies: ['a'] },
    ]);
    const r = await executePlan(p, { runTool }, context);
    expect(calls.map((c) => c.toolId)).toEqual(['a', 'b', 'e']);
    expect(r).toMatchObject({
      success: false,
      failedTools: ['b'],
      skippedTools: ['c', 'd'],
      state: { a: true, e: true },
    });
    expect(byId(r, 'c').error).toBe('dependency "b" failed');
    // d depends only on the optional c, but c was skipped because of b: still skipped.
    expect(byId(r, 'd').error).toBe('dependency "c" was skipped');
    expect(r.failureReason).toMatch(/^tool "b" failed after 1 attempt:/);
  });

  it('given an optional tool that fails, then its dependents run with null for it and the plan can succeed', async () => {
    const { runTool, calls } = fakeRunner({ hint: failing() });
    const p = plan([
      { toolId: 'hint', required: false, retryPolicy: noRetry },
      { toolId: 'look' },
      { toolId: 'act', dependencies: ['hint', 'look'] },
    ]);
    const r = await executePlan(p, { runTool }, context);
    expect(calls.find((c) => c.toolId === 'act')!.input.input['dependencies']).toEqual({
      hint: null,
      look: { look: true },
    });
    expect(r).toMatchObject({
      success: true,
      failureReason: null,
      failedTools: ['hint'],
      skippedTools: [],
    });
  });

  it('given a disabled skill, then its tools are skipped with "skill disabled" and count as failures for their dependents', async () => {
    const { runTool, calls } = fakeRunner();
    const p = plan(
      [
        { toolId: 'oracle', skill: 'seer', required: false },
        { toolId: 'guess', skill: 'tactics', dependencies: ['oracle'] },
        { toolId: 'core' },
        { toolId: 'after-core', dependencies: ['core'] },
      ],
      { disabledSkills: ['seer', 'council'] },
    );
    const r = await executePlan(p, { runTool }, context);
    expect(calls.map((c) => c.toolId)).toEqual(['guess']);
    expect(calls[0]!.input.input['dependencies']).toEqual({ oracle: null });
    expect(byId(r, 'oracle')).toMatchObject({ state: 'skipped', error: 'skill disabled' });
    // core has no skill of its own: it inherits the plan's ("council"), which is disabled.
    expect(byId(r, 'core')).toMatchObject({ state: 'skipped', error: 'skill disabled' });
    expect(byId(r, 'after-core')).toMatchObject({
      state: 'skipped',
      error: 'dependency "core" was skipped',
    });
    expect(r).toMatchObject({
      success: false,
      canReplan: true,
      failureReason: 'tool "core" was not run: its skill "council" is disabled',
    });
    expect(r.trace.filter((e) => e.type === 'tool_skipped').map((e) => e.data['reason'])).toEqual([
      'skill_disabled',
      'skill_disabled',
      'dependency',
    ]);
  });
});

describe('executePlan — misbehaving ports never make it throw', () => {
  it('given a runTool that rejects, then the attempt fails as agent/threw', async () => {
    const runTool = () => Promise.reject(new Error('boom'));
    const r = await executePlan(
      plan([{ toolId: 'x', retryPolicy: { maxRetries: 1, backoffMs: 0 } }]),
      { runTool },
      context,
    );
    expect(byId(r, 'x')).toMatchObject({
      state: 'failed',
      retryCount: 1,
      error: 'agent/threw: runTool threw: boom',
    });
  });

  it('given a runTool that throws synchronously, then the same', async () => {
    const runTool = () => {
      throw new Error('sync boom');
    };
    const r = await executePlan(
      plan([{ toolId: 'x', retryPolicy: { maxRetries: 0 } }]),
      { runTool },
      context,
    );
    expect(byId(r, 'x').error).toBe('agent/threw: runTool threw: sync boom');
  });

  it('given a runTool that ignores its signal, then the executor stops waiting stopGraceMs after the deadline', async () => {
    // It never settles: the test ends only because the executor stops waiting.
    const runTool = () => new Promise<never>(() => {});
    const r = await executePlan(
      plan([{ toolId: 'stuck', timeoutMs: 50, retryPolicy: { maxRetries: 0 } }]),
      { runTool, stopGraceMs: 50 },
      context,
    );
    expect(byId(r, 'stuck')).toMatchObject({ state: 'timeout', error: 'timed out after 50 ms' });
  });
});
