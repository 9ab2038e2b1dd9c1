import { describe, expect, it } from 'vitest';
import { runInProcess, runInProcessSync } from '../../../src/agents/runtime/in-process.js';
import type { ToolInput } from '../../../src/protocol/index.js';

const INPUT: ToolInput = {
  requestId: 'req_1',
  tool: 'builtin',
  operation: 'action',
  input: { turn: 1 },
};
const patch = (p: object) => ({ version: '0', type: 'state_patch', patch: p });
const DONE = { version: '0', type: 'done', ok: true };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runInProcessSync', () => {
  it('given an agent that answers, then its events go through the collector like a process', () => {
    const outcome = runInProcessSync(
      (input) => [patch({ decision: { echo: input.requestId } }), DONE],
      INPUT,
    );
    expect(outcome).toMatchObject({
      ok: true,
      failure: null,
      exitCode: 0,
      stderr: '',
      state: { decision: { echo: 'req_1' } },
    });
  });

  it('given a generator, then it stops pulling at the first protocol failure', () => {
    let pulled = 0;
    const outcome = runInProcessSync(function* () {
      pulled++;
      yield { version: '0', type: 'teleport' };
      pulled++;
      yield DONE;
    }, INPUT);
    expect(outcome.failure?.code).toBe('protocol/unknown_type');
    expect(pulled).toBe(1);
  });

  it('given an agent that throws, then the failure is agent/threw with its message', () => {
    const outcome = runInProcessSync(() => {
      throw new RangeError('no legal move');
    }, INPUT);
    expect(outcome.failure).toEqual({
      code: 'agent/threw',
      message: 'the agent threw: RangeError: no legal move',
    });
  });

  it('given an agent that throws mid-stream, then what came before is kept and it still fails', () => {
    const outcome = runInProcessSync(function* () {
      yield patch({ a: 1 });
      throw new Error('boom');
    }, INPUT);
    expect(outcome.state).toEqual({ a: 1 });
    expect(outcome.failure?.code).toBe('agent/threw');
  });

  it('given a result that is not iterable, then it is agent/threw', () => {
    const outcome = runInProcessSync(() => undefined as unknown as Iterable<unknown>, INPUT);
    expect(outcome.failure?.code).toBe('agent/threw');
  });

  it('given no done, then it fails like a process would', () => {
    expect(runInProcessSync(() => [patch({ a: 1 })], INPUT).failure?.code).toBe('protocol/no_done');
  });

  it('given a deadline, then values produced after it are refused', () => {
    const outcome = runInProcessSync(
      function* () {
        yield patch({ a: 1 });
        const until = performance.now() + 30;
        while (performance.now() < until) {
          // busy: synchronous code cannot be pre-empted
        }
        yield DONE;
      },
      INPUT,
      { deadlineMs: 10 },
    );
    expect(outcome.failure?.code).toBe('process/timeout');
    expect(outcome.done).toBeNull();
  });

});

describe('runInProcess', () => {
  it('given an async generator, then it is consumed through the collector', async () => {
    const outcome = await runInProcess(async function* () {
      await sleep(1);
      yield patch({ a: 1 });
      yield { version: '0', type: 'error', errorCode: 'E', errorMessage: 'soft' };
      yield DONE;
    }, INPUT);
    expect(outcome).toMatchObject({ ok: true, state: { a: 1 } });
    expect(outcome.errors).toHaveLength(1);
  });

  it('given a promise of an array, then it works too', async () => {
    const outcome = await runInProcess(() => Promise.resolve([patch({ b: 2 }), DONE]), INPUT);
    expect(outcome).toMatchObject({ ok: true, state: { b: 2 } });
  });

  it('given a plain array, then it works too', async () => {
    expect((await runInProcess(() => [DONE], INPUT)).ok).toBe(true);
  });

  it('given a rejected promise, then it is agent/threw', async () => {
    const outcome = await runInProcess(() => Promise.reject(new Error('model down')), INPUT);
    expect(outcome.failure).toEqual({
      code: 'agent/threw',
      message: 'the agent threw: Error: model down',
    });
  });

  it('given an agent that hangs, then the deadline cuts it off mid-await and its finally runs', async () => {
    let cleanedUp = false;
    const outcome = await runInProcess(
      async function* () {
        try {
          yield patch({ a: 1 });
          await sleep(50);
          yield DONE;
          await new Promise(() => {}); // never settles
        } finally {
          cleanedUp = true;
        }
      },
      INPUT,
      { deadlineMs: 20 },
    );
    expect(outcome.failure?.code).toBe('process/timeout');
    expect(outcome.failure?.message).toContain('20 ms');
    expect(outcome.state).toEqual({ a: 1 });
    // It returned at all: the agent never settles, so only the deadline can end the call.
    await sleep(60);
    expect(cleanedUp).toBe(true);
  });

  it('given a promise that never settles, then the deadline still ends the call', async () => {
    const outcome = await runInProcess(() => new Promise<never>(() => {}), INPUT, {
      deadlineMs: 20,
    });
    expect(outcome.failure?.code).toBe('process/timeout');
  });

  it('given a protocol failure, then the generator is closed', async () => {
    let closed = false;
    const outcome = await runInProcess(async function* () {
      try {
        await sleep(0);
        yield 42;
        yield DONE;
      } finally {
        closed = true;
      }
    }, INPUT);
    expect(outcome.failure?.code).toBe('protocol/not_object');
    await sleep(0);
    expect(closed).toBe(true);
  });
});
