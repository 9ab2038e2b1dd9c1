import type { SeatSummary } from '../runner/seat-summary.js';
import { seatLabel } from './outcome-format.js';
import { table } from './format.js';

/** "ok 12, malformed 2": the most frequent first; "—" when empty. */
export const counts = (r: Record<string, number>): string =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '—';

/**
 * Per-call wire latency, "p50/p95/max" ms (max: the stalls a p95 hides), and beside it the time
 * calls waited in Tiltyard before leaving (cap holds, retry backoff): a busy table is not a slow model.
 */
export const LATENCY_HEADING = 'wire ms p50/p95/max';
export const QUEUED_HEADING = 'queued ms p50/p95/max';
export const latencyText = (l: SeatSummary['wire_ms']): string => (l ? `${l.p50}/${l.p95}/${l.max}` : '—');

/**
 * The seats' health as a table (one row per seat that decided anything; nothing when no seat
 * called a model or fell back), then one line per seat
 * that fell back, saying why: "P1 fell back 3×: provider/unavailable 2, llm/unknown_key 1".
 */
export function formatSeatSummaries(seats: readonly SeatSummary[]): string {
  const active = seats.filter((s) => s.decisions > 0);
  // Built-ins always answer at once and call nothing: a table of them says nothing.
  if (!active.some((s) => s.fell_back > 0 || s.rejected > 0 || Object.keys(s.calls).length > 0)) return '';
  const rows = active.map((s) => [
    seatLabel(s.player_id),
    s.agent,
    String(s.decisions),
    String(s.answered_first_time),
    String(s.repaired),
    String(s.rejected),
    String(s.fell_back),
    counts(s.calls),
    `${s.input_tokens}/${s.output_tokens}`,
    s.cost_usd === null ? 'unknown' : s.cost_usd ? `$${s.cost_usd.toFixed(4)}` : '—',
    latencyText(s.wire_ms),
    latencyText(s.queued_ms),
  ]);
  const why = active.flatMap((s) => [
    ...(s.rejected > 0 ? [`  ${seatLabel(s.player_id)} rejected by the engine ${s.rejected}×: ${counts(s.rejection_reasons)}`] : []),
    ...(s.fell_back > 0 ? [`  ${seatLabel(s.player_id)} fell back ${s.fell_back}×: ${counts(s.fallback_reasons)}`] : []),
  ]);
  return [
    'Seats:',
    ...table([['seat', 'agent', 'decisions', 'first time', 'repaired', 'rejected', 'fell back', 'calls', 'tokens in/out', 'cost', LATENCY_HEADING, QUEUED_HEADING], ...rows], 2),
    ...why,
  ].join('\n') + '\n';
}
