import type { JsonObject, TraceEntry } from '../../protocol/index.js';

export type TraceType = TraceEntry['type'];

/** Appends trace entries in the order things happened, each stamped with both clocks. */
export type TraceRecorder = {
  readonly entries: TraceEntry[];
  record(type: TraceType, toolId: string | null, data?: JsonObject): void;
};

/**
 * `ts` comes from the wall clock (to line up with other logs) and `data.elapsedMs` from the
 * monotonic one (to measure gaps and overlaps, which wall-clock jumps would spoil).
 *
 * @example
 * const trace = createTrace(() => new Date().toISOString(), () => performance.now());
 * trace.record('retry', 'look', { attempt: 2, delayMs: 100 });
 */
export function createTrace(clock: () => string, now: () => number): TraceRecorder {
  const start = now();
  const entries: TraceEntry[] = [];
  return {
    entries,
    record(type, toolId, data = {}) {
      entries.push({
        ts: clock(),
        type,
        toolId,
        data: { elapsedMs: Math.round(now() - start), ...data },
      });
    },
  };
}
