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
