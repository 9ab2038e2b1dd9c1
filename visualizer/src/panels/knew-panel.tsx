import { useEffect, useState } from 'preact/hooks';
import { fetchSnapshot } from '../game/history.js';
import { KeyValues } from './key-values.js';
import type { View } from './types.js';

type Props = { gameId: string; seats: string[]; names: Map<string, string>; cursor: number; truth: View };

/**
 * "What seat X knew" beside the truth, at the current position: the seat's own projection (asked
 * of the server: the page never derives it) against what really was — the others' hands, plans
 * and emotions from the all-seeing view on screen.
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
      <div class="side-by-side">
        <section aria-label={`What ${name(seat)} knew`} data-testid="knew-seat-side" data-seq={knew?.seq ?? ''}>
          <h3>{name(seat)} knew (seq {knew?.seq ?? '…'})</h3>
          {own ? (
            <KeyValues
              value={{
                read_of_others: Object.fromEntries(Object.entries(own.belief_state.tells).map(([k, t]) => [name(k), t.masked ? 'masked' : (t.dominant ?? 'calm')])),
                revealed_plans: own.belief_state.revealed_plans,
                own_hand: own.hand.map((c) => c.name),
                face_down_seen: knew!.view.world.arena.cards.filter((c) => c.face_down).map((c) => c.card.name),
              }}
            />
          ) : (
            <p class="muted">loading…</p>
          )}
        </section>
        <section aria-label="The truth" data-testid="knew-truth-side">
          <h3>The truth (seq {cursor})</h3>
          <KeyValues
            value={Object.fromEntries(
              others.map((p) => [
                name(p.player_id),
                {
                  feels: p.emotion_state ? Object.fromEntries(Object.entries(p.emotion_state).filter(([, v]) => typeof v === 'number' && v >= 0.4)) : {},
                  plan: p.secret_plan,
                  hand: p.hand.map((c) => c.name),
                },
              ]),
            )}
          />
        </section>
      </div>
    </div>
  );
}
