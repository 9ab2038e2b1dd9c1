import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstAnswer } from '../../../src/server/http/first-answer.js';

const settled = async (p: Promise<void>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
};

describe('firstAnswer (what the demo table waits for)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('given a request, then it resolves once that answer has finished, not when it arrives', async () => {
    vi.useFakeTimers();
    const first = firstAnswer(1000);
    const answered = first.answered();
    const res = new EventEmitter();
    let passed = false;
    first.middleware({} as IncomingMessage, res as unknown as ServerResponse, () => (passed = true));
    expect(passed).toBe(true);
    expect(await settled(answered)).toBe(false);
    res.emit('finish');
    expect(await settled(answered)).toBe(true);
  });

  it('given nobody asks, then it resolves after the idle time, counted from answered()', async () => {
    vi.useFakeTimers();
    const first = firstAnswer(1000);
    await vi.advanceTimersByTimeAsync(5000);
    const answered = first.answered();
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(answered)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(answered)).toBe(true);
  });
});
