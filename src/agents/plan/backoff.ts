import type { RetryPolicy } from '../../protocol/index.js';

/**
 * The wait before the next attempt once attempt `failedAttempt` (1-based) has failed:
 * `backoffMs × 2^(failedAttempt − 1)` (seed 002 §2).
 *
 * @example
 * backoffDelayMs({ maxRetries: 3, backoffMs: 100 }, 1); // 100
 * backoffDelayMs({ maxRetries: 3, backoffMs: 100 }, 3); // 400
 */
export function backoffDelayMs(policy: RetryPolicy, failedAttempt: number): number {
  return policy.backoffMs * 2 ** (failedAttempt - 1);
}

/**
 * A timer that ends early, without rejecting, when `signal` aborts: the caller checks the signal
 * afterwards, so an aborted wait is not an error.
 *
 * @example
 * await abortableSleep(50, controller.signal);
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const finish = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setTimeout(finish, ms);
    signal.addEventListener('abort', finish, { once: true });
  });
}
