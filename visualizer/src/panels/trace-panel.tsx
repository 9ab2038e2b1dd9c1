import { useEffect, useState } from 'preact/hooks';
import { getJson } from '../lib/api.js';
import { KeyValues } from './key-values.js';

type Stage = { stage: string; payload: Record<string, unknown>; metrics?: { latency_ms?: number; tokens?: number } };
type Trace = { player_id: string; turn: number; window: string; entries: { agent?: string; ok?: boolean; fallback?: string | null; latency_ms?: number; retries?: number; validation?: string[]; stages?: Stage[] } };

/** The words of a reasoning stage, whatever key the agent runtime put them under. */
const reasoning = (s: Stage): string | null => {
  for (const k of ['reasoning', 'text', 'thought', 'content', 'summary']) if (typeof s.payload[k] === 'string') return s.payload[k];
  return null;
};

/**
 * One seat's decisions in one round, from `GET /games/:id/traces` (admins any time, researchers
 * after the end; the page offers it only to those views): per decision its window, agent,
 * latency, retries and repairs, tokens, and the reasoning each stage recorded; raw one click away.
 */
export function TracePanel({ gameId, seat, turn, name, close }: { gameId: string; seat: string; turn: number; name: string; close: () => void }) {
  const [traces, setTraces] = useState<Trace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    getJson<{ traces: Trace[] }>(`/games/${encodeURIComponent(gameId)}/traces?player=${encodeURIComponent(seat)}&turn=${turn}`, abort.signal).then(
      (r) => setTraces(r.traces),
      (e: unknown) => !abort.signal.aborted && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => abort.abort();
  }, [gameId, seat, turn]);
  return (
    <section class="panel" aria-label={`${name}'s decisions in round ${turn}`} data-testid="trace-panel">
      <h2>
        {name}’s decisions, round {turn}{' '}
        <button type="button" class="ghost" onClick={close}>
          close
        </button>
      </h2>
      {error && <p class="error">{error}</p>}
      {traces?.length === 0 && <p class="muted">No decision traces for this seat in this round (built-in seats decide without one).</p>}
      {traces?.map((t, i) => {
        const e = t.entries;
        const stages = e.stages ?? [];
        const tokens = stages.reduce((n, s) => n + (s.metrics?.tokens ?? 0), 0);
        return (
          <article key={i} data-testid="trace">
            <h3>
              {t.window} · {e.agent ?? 'agent'} · {e.ok === false ? 'failed' : 'answered'}
              {e.fallback ? ` (fallback: ${e.fallback})` : ''}
            </h3>
            <p class="muted">
              {e.latency_ms ?? '?'} ms · {stages.length} stage{stages.length === 1 ? '' : 's'} · {tokens} tokens · {e.retries ?? 0} retr{e.retries === 1 ? 'y' : 'ies'}
              {e.validation?.length ? ` · repairs asked for: ${e.validation.join('; ')}` : ''}
            </p>
            <ol>
              {stages.map((s, j) => (
                <li key={j}>
                  <b>{s.stage}</b>
                  {s.metrics ? ` (${s.metrics.latency_ms ?? '?'} ms, ${s.metrics.tokens ?? 0} tokens)` : ''}
                  {reasoning(s) !== null && <>: {reasoning(s)}</>}
                </li>
              ))}
            </ol>
            <details>
              <summary>raw trace</summary>
              <KeyValues value={e} />
            </details>
          </article>
        );
      })}
    </section>
  );
}
