/**
 * Runs `work` on every item with at most `concurrency` in flight, starting them in order; resolves
 * when all have settled. `stop()` returning true keeps further items from starting (those in
 * flight finish). `work` must not throw: a failure is its own to record.
 */
export async function runPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}
