import type { SeatSummary } from '../../../src/runner/seat-summary.js';
import type { GameRecordView } from './history.js';

/** One seat's health as GET /games/:id gives it to admins and researchers. */
export type SeatHealth = SeatSummary;

/** "p50 / p95 / max ms", or a dash (games stored before wire and queued time were apart have no queued figures). */
const ms = (p: SeatSummary['wire_ms'] | undefined): string => (p ? `${p.p50} / ${p.p95} / ${p.max} ms` : '—');

// Codes verbatim (llm/invalid_json, action/missing_attack_plan): what the CLI, REST and docs say.
const counts = (r: Record<string, number>): string =>
  Object.entries(r)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '—';

/**
 * How each seat's agent did, for views entitled to it: decisions answered first time, after a
 * repair turn, rejected by the engine (and why), or by the fallback (and why), its provider
 * calls, tokens, cost and call latency. Shown
 * only when a seat is a skill or an LLM, called a model or fell back: a table of built-ins
 * answering every time says nothing. Collapsed to one line until opened.
 */
export function SeatHealthPanel({ game, names }: { game: GameRecordView & { seat_health?: SeatHealth[] }; names: Map<string, string> }) {
  const seats = game.seat_health ?? [];
  if (!seats.some((s) => /^(skill|llm):/.test(s.agent) || Object.keys(s.calls).length > 0 || s.fell_back > 0)) return null;
  const fellBack = seats.reduce((n, s) => n + s.fell_back, 0);
  // An unpriced seat's cost is unknown (null), so the total is too: never shown as $0.
  const cost = seats.some((s) => s.cost_usd === null) ? null : seats.reduce((n, s) => n + (s.cost_usd ?? 0), 0);
  return (
    <details class="panel seat-health" data-testid="seat-health">
      <summary>
        Seat health · {fellBack === 0 ? 'every decision answered by its agent' : `${fellBack} decision${fellBack === 1 ? '' : 's'} fell back`} · {cost === null ? 'cost unknown (unpriced models)' : `$${cost.toFixed(4)} in provider calls`}
      </summary>
      <table class="grid">
        <thead>
          <tr>
            <th>seat</th>
            <th>agent</th>
            <th>decisions</th>
            <th>first time</th>
            <th>repaired</th>
            <th title="answers the engine refused as illegal">rejected (why)</th>
            <th>fell back (why)</th>
            <th>calls</th>
            <th>tokens in / out</th>
            <th>cost</th>
            <th title="per HTTP attempt, request sent to whole reply; nearest rank">wire p50 / p95 / max</th>
            <th title="per call, time waiting in Tiltyard before the request left (cost cap holds, retry backoff)">queued p50 / p95 / max</th>
          </tr>
        </thead>
        <tbody>
          {seats.map((s) => (
            // Not data-player: that names the table's seats, which pages and tests find by it.
            <tr key={s.player_id} data-testid="seat-health-row" data-health-player={s.player_id} data-decisions={s.decisions}>
              <td>{names.get(s.player_id) ?? s.player_id}</td>
              <td>{s.agent}</td>
              <td>{s.decisions}</td>
              <td>{s.answered_first_time}</td>
              <td>{s.repaired}</td>
              <td data-testid="seat-health-rejected">
                {s.rejected}
                {s.rejected > 0 && <span class="muted"> ({counts(s.rejection_reasons)})</span>}
              </td>
              <td>
                {s.fell_back}
                {s.fell_back > 0 && <span class="muted"> ({counts(s.fallback_reasons)})</span>}
              </td>
              <td>{counts(s.calls)}</td>
              <td>
                {s.input_tokens.toLocaleString('en-US')} / {s.output_tokens.toLocaleString('en-US')}
              </td>
              <td>{s.cost_usd === null ? 'unknown' : `$${s.cost_usd.toFixed(4)}`}</td>
              <td>{ms(s.wire_ms ?? s.latency_ms)}</td>
              <td>{ms(s.queued_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
