/**
 * Waits `ms` on a real timer, or less if `signal` aborts first; never rejects. Callers check the
 * signal afterwards, so an aborted wait is not an error. The one sleep behind the runner's pace,
 * the plan executor's backoff, the router's Retry-After waits and the mock's simulated latency.
 *
 * @example await abortableSleep(250, controller.signal)
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
