import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPLAN_BOUNDS,
  runWithReplan,
  type GenerateRequest,
} from '../../../src/agents/plan/index.js';
import type { ExecutionResult, PlanJson } from '../../../src/protocol/index.js';

/** A generated plan whose tools belong to the given skills (tool ids are the skill names). */
const rawPlan = (attempt: number, skills: Array<string | undefined>) => ({
  requestId: `g${attempt}`,
  tools: skills.map((skill, i) => ({
    toolId: skill ?? `t${i}`,
    toolPath: 'x',
    ...(skill ? { skill } : {}),
  })),
});
const cyclicPlan = (attempt: number) => ({
  requestId: `g${attempt}`,
  tools: [
    { toolId: 'a', toolPath: 'x', dependencies: ['b'] },
    { toolId: 'b', toolPath: 'x', dependencies: ['a'] },
  ],
});

/** An execution in which the listed tools fail (all of them required). */
function fakeResult(plan: PlanJson, failed: string[], canReplan = true): ExecutionResult {
  const success = failed.length === 0;
  return {
    planId: plan.requestId,
    success,
    narrative: '',
    executionTimeMs: 1,
    toolResults: plan.tools.map((t) => ({
      toolId: t.toolId,
      ok: !failed.includes(t.toolId),
      state: failed.includes(t.toolId) ? 'failed' : 'completed',
      executionTimeMs: 1,
      retryCount: 0,
      error: null,
      output: {},
      events: [],
    })),
    failedTools: failed,
    skippedTools: [],
    generationMetadata: plan.metadata,
    canReplan: !success && canReplan,
    failureReason: success ? null : `tool "${failed[0]}" failed`,
    state: {},
    trace: [],
  };
}

describe('runWithReplan', () => {
  it('stops at the first successful execution', async () => {
    const out = await runWithReplan(
      ({ attempt }) => rawPlan(attempt, ['a']),
      (plan) => Promise.resolve(fakeResult(plan, [])),
    );
    expect(out).toMatchObject({
      executions: 1,
      generations: 1,
      exhausted: false,
      disabledSkills: [],
      result: { success: true },
    });
  });

  it('disables the skills of the tools that failed in execution 1 before generation 2, and writes them into the plan', async () => {
    const requests: GenerateRequest[] = [];
    const executed: PlanJson[] = [];
    const out = await runWithReplan(
      (req) => {
        requests.push(req);
        return req.attempt === 1
          ? rawPlan(1, ['seer', 'scout', undefined])
          : rawPlan(req.attempt, ['scout']);
      },
      (plan) => {
        executed.push(plan);
        return Promise.resolve(fakeResult(plan, plan.requestId === 'g1' ? ['seer', 't2'] : []));
      },
      { ...DEFAULT_REPLAN_BOUNDS, skill: 'council' },
    );
    expect(requests.map((r) => r.disabledSkills)).toEqual([[], ['seer', 'council']]);
    expect(requests[1]!.previous).toMatchObject({ planId: 'g1', success: false });
    // The generator did not copy them; the loop did.
    expect(executed[1]!.disabledSkills).toEqual(['seer', 'council']);
    expect(out).toMatchObject({
      executions: 2,
      generations: 2,
      exhausted: false,
      disabledSkills: ['seer', 'council'],
      result: { success: true },
    });
  });

  it('gives up after 3 failed executions: exhausted, with the last result', async () => {
    const out = await runWithReplan(
      ({ attempt }) => rawPlan(attempt, [`skill${attempt}`]),
      (plan) => Promise.resolve(fakeResult(plan, [plan.tools[0]!.toolId])),
    );
    expect(out).toMatchObject({
      executions: 3,
      generations: 3,
      exhausted: true,
      disabledSkills: ['skill1', 'skill2', 'skill3'],
    });
    expect(out.result?.planId).toBe('g3');
  });

  it('counts an invalid plan as a generation but not an execution, and tells the generator why it was rejected', async () => {
    const requests: GenerateRequest[] = [];
    let executions = 0;
    const out = await runWithReplan(
      (req) => {
        requests.push(req);
        return req.attempt <= 2 ? cyclicPlan(req.attempt) : rawPlan(req.attempt, ['a']);
      },
      (plan) => {
        executions += 1;
        return Promise.resolve(fakeResult(plan, []));
      },
    );
    expect(executions).toBe(1);
    expect(out).toMatchObject({ executions: 1, generations: 3, exhausted: false });
    expect(requests[1]!.rejected).toMatchObject({ code: 'plan/cycle', cycle: ['a', 'b', 'a'] });
    expect(requests[2]!.rejected).toMatchObject({ code: 'plan/cycle' });
    expect(out.history.map((h) => h.valid)).toEqual([false, false, true]);
    expect(out.history[0]!.reason).toContain('a → b → a');
  });

  it('gives up after 5 generations even when fewer than 3 plans ran', async () => {
    const out = await runWithReplan(
      ({ attempt }) => (attempt % 2 === 1 ? { requestId: '' } : rawPlan(attempt, ['a'])),
      (plan) => Promise.resolve(fakeResult(plan, ['a'])),
    );
    expect(out).toMatchObject({ generations: 5, executions: 2, exhausted: true });
    expect(out.history.map((h) => h.valid)).toEqual([false, true, false, true, false]);
  });

  it('stops without exhausting when the generator has no plan', async () => {
    const out = await runWithReplan(
      ({ attempt }) => (attempt === 1 ? rawPlan(1, ['a']) : null),
      (plan) => Promise.resolve(fakeResult(plan, ['a'])),
    );
    expect(out).toMatchObject({
      executions: 1,
      generations: 2,
      exhausted: false,
      result: { success: false },
    });
    expect(out.history[1]).toEqual({
      generation: 2,
      valid: false,
      reason: 'the generator returned no plan',
    });
  });

  it('stops when the result says another plan cannot help', async () => {
    const out = await runWithReplan(
      ({ attempt }) => rawPlan(attempt, ['a']),
      (plan) => Promise.resolve(fakeResult(plan, ['a'], false)),
    );
    expect(out).toMatchObject({ executions: 1, generations: 1, exhausted: false });
  });

  it('awaits async generators', async () => {
    const out = await runWithReplan(
      ({ attempt }) => Promise.resolve(rawPlan(attempt, ['a'])),
      (plan) => Promise.resolve(fakeResult(plan, [])),
    );
    expect(out.result?.success).toBe(true);
  });

  it('is deterministic: the same generator and executor give the same history', async () => {
    const run = () =>
      runWithReplan(
        ({ attempt, disabledSkills }) =>
          attempt === 2
            ? cyclicPlan(2)
            : rawPlan(
                attempt,
                ['x', 'y', 'z'].filter((s) => !disabledSkills.includes(s)),
              ),
        (plan) =>
          Promise.resolve(
            fakeResult(
              plan,
              plan.tools.slice(0, 1).map((t) => t.toolId),
            ),
          ),
      );
    expect(await run()).toEqual(await run());
  });
});
