import type { MockSleep } from './mock-options.js';

/**
 * Waits on real timers; an abort ends the wait early (it resolves: the provider then reports the
 * abort as a result, since providers never throw).
 *
 * @example await realSleep(250, controller.signal)
 */
export const realSleep: MockSleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
