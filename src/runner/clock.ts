/** A logical clock: simulated games stamp events deterministically so their logs hash the same. */
export function logicalClock(startMs = Date.UTC(2026, 0, 1)): () => string {
  let tick = 0;
  return () => new Date(startMs + tick++).toISOString();
}
