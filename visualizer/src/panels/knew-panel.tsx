import { useEffect, useMemo, useState } from 'preact/hooks';
import { alignMinds, type MindStatus } from '../../../src/view/index.js';
import { fetchSnapshot } from '../game/history.js';
import { KeyValues } from './key-values.js';
import type { View } from './types.js';

const MARK: Record<MindStatus, string> = { same: '✓ knew', differs: '✗ wrong', unknown: '? did not know' };

type Props = { gameId: string; seats: string[]; names: Map<string, string>; cursor: number; truth: View };

/**
 * "What seat X knew" beside the truth, at the current position: the seat's own projection (asked
 * of the server: the page never derives it) aligned row by row with what really was in the
 * all-seeing view on screen (alignMinds: its reads of tells, the plans revealed to it, the cards
 * it saw face down, its memory), wrong beliefs marked. The raw projections are one click away.
 */
export function KnewPanel({ gameId, seats, names, cursor, truth }: Props) {
  const [seat, setSeat] = useState(seats[0] ?? 'plr_1');
  const [knew, setKnew] = useState<{ seq: number; view: View } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    const t = setTimeout(() => {
      fetchSnapshot(gameId, seat, cursor, abort.signal)
        .then((s) => setKnew({ seq: s.seq, view: s.state as View }))
        .catch((e: unknown) => {
          if (!abort.signal.aborted) setError(e instanceof Error ? e.message : String(e));
        });
    }, 120);
    return () => {
      clearTimeout(t);
      abort.abort();
    };
  }, [gameId, seat, cursor]);
  const own = knew?.view.private.find((p) => p.player_id === seat);
  const others = truth.private.filter((p) => p.player_id !== seat);
  const name = (id: string) => names.get(id) ?? id;
  // The truth is the view on screen at the cursor; the belief only once its own seq has arrived.
  const minds = useMemo(() => (knew && knew.seq === cursor ? alignMinds(knew.view, truth, seat, names, cursor) : null), [knew, truth, seat, names, cursor]);
  return (
    <div data-testid="knew">
      <label>
        seat{' '}
        <select data-testid="knew-seat" value={seat} onChange={(e) => setSeat((e.target as HTMLSelectElement).value)}>
          {seats.map((s) => (
            <option key={s} value={s}>
              {name(s)}
            </option>
          ))}
        </select>
      </label>
      {error && <p class="error">{error}</p>}
      <p class="muted" data-testid="knew-seat-side" data-seq={knew?.seq ?? ''}>
        What {name(seat)} believed at seq {knew?.seq ?? '…'}, beside the truth at seq {cursor}
        {minds ? ` — ${minds.differ} belief${minds.differ === 1 ? '' : 's'} wrong` : ''}.
      </p>
      {minds ? (
        <table class="minds" aria-label={`What ${name(seat)} believed, beside the truth`}>
          <thead>
            <tr>
              <th scope="col">{name(seat)} believed</th>
              <th scope="col">the truth</th>
              <th scope="col">
                <span class="sr-only">agrees?</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {minds.rows.map((r, i) => (
              <tr key={i} class={`mind ${r.status}`} data-testid="mind-row" data-status={r.status} data-topic={r.topic}>
                <td data-testid="mind-believed">{r.believed}</td>
                <td data-testid="mind-truth">{r.truth}</td>
                <td class="mark">{r.topic === 'memory' ? 'its memory' : MARK[r.status]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">loading…</p>
      )}
      <details data-testid="knew-raw">
        <summary>raw projections</summary>
        <div class="side-by-side">
          <section aria-label={`What ${name(seat)} knew, raw`}>
            <h3>{name(seat)}’s own view</h3>
            <KeyValues value={own ? { belief_state: own.belief_state, memory: own.memory_state.notes, hand: own.hand.map((c) => c.name) } : null} />
          </section>
          <section aria-label="The truth, raw">
            <h3>The truth</h3>
            <KeyValues value={Object.fromEntries(others.map((p) => [name(p.player_id), { plan: p.secret_plan, hand: p.hand.map((c) => c.name) }]))} />
          </section>
        </div>
      </details>
    </div>
  );
}
