import { raw, type Raw } from './finding.js';
import type { Invocation } from './invocation.js';

/** Above this share of the deadline an answer is flagged: a slower machine or a busier table would time out. */
export const LATENCY_WARN_SHARE = 0.5;

/** A successful answer that took more than half its deadline (a timeout is a protocol failure). */
export function latencyCheck(inv: Invocation): Raw[] {
  if (inv.failure || inv.latencyMs <= LATENCY_WARN_SHARE * inv.deadlineMs) return [];
  const share = Math.round((inv.latencyMs / inv.deadlineMs) * 100);
  return [
    raw(
      'latency',
      'warning',
      'latency',
      `answered in ${Math.round(inv.latencyMs)} ms, ${share}% of its ${inv.deadlineMs} ms deadline`,
      'answer faster (cache what does not change, start fewer processes) or raise metadata.timeout_ms; the runtime marks a skill degraded above 80% and kills it at 100%',
      inv.window,
    ),
  ];
}
