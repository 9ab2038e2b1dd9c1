import { useState } from 'preact/hooks';
import { errorMessage } from '../lib/api.js';
import { token } from '../lib/auth.js';

/** The opponents a person may sit down against from the lobby (any spec works over POST /games). */
export const OPPONENTS = [
  'balanced',
  'aggressor',
  'turtle',
  'manipulator',
  'trickster',
  'random',
  'expert:fast',
  'expert',
] as const;
const NAME_MAX = 40;
const DEFAULT_OPPONENTS = ['balanced', 'aggressor', 'turtle'];

/** The `POST /games` body for a person named `name` against `opponents` (plr_1 is the person). */
export function seatRequest(
  name: string,
  opponents: readonly string[],
  compact: boolean,
  seconds: number,
): Record<string, unknown> {
  const who = name.trim();
  return {
    agents: [who ? `human:${who}` : 'human', ...opponents],
    human_timeout_ms: Math.round(seconds * 1000),
    ...(compact ? { rules: { windows: 'compact' } } : {}),
  };
}

/**
 * "Take a seat" (admins only: creating a game is an admin's call): a person names themself, picks
 * three opponents, and is sent to their seat page with its token in the fragment — the only place
 * the token is ever shown. Anyone else is told how a seat is handed out.
 */
export function TakeSeat({ admin }: { admin: boolean }) {
  const [name, setName] = useState('');
  const [opponents, setOpponents] = useState<string[]>(DEFAULT_OPPONENTS);
  const [compact, setCompact] = useState(false);
  const [seconds, setSeconds] = useState(120);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!admin)
    return (
      <section aria-labelledby="seat-h" data-testid="take-seat">
        <h2 id="seat-h">Play a game yourself</h2>
        <p class="muted">
          An admin seats you: they sign in here (or call <code>POST /games</code> with{' '}
          <code>"human:&lt;your name&gt;"</code>) and send you your seat's link. At a terminal:{' '}
          <code>tiltyard play --agents human,balanced,aggressor,turtle</code>.
        </p>
      </section>
    );
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/games', {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token.value}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(seatRequest(name, opponents, compact, seconds)),
      });
      if (!res.ok) throw new Error(await errorMessage(res));
      const game = (await res.json()) as { human_seats: { url: string }[] };
      // A full load: the seat page reads its token from the fragment and takes it off the address bar.
      window.location.assign(game.human_seats[0]!.url);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="seat-h" data-testid="take-seat">
      <h2 id="seat-h">Play a game yourself</h2>
      <form class="take-seat" onSubmit={(e) => void submit(e)}>
        <label>
          Your name{' '}
          <input
            value={name}
            maxLength={NAME_MAX}
            placeholder="Ada"
            data-testid="seat-name-input"
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </label>
        {opponents.map((o, i) => (
          <label key={i}>
            Opponent {i + 1}{' '}
            <select
              value={o}
              data-testid={`opponent-${i + 1}`}
              onChange={(e) =>
                setOpponents(
                  opponents.map((x, j) => (j === i ? (e.target as HTMLSelectElement).value : x)),
                )
              }
            >
              {OPPONENTS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          Seconds per decision{' '}
          <input
            type="number"
            min={10}
            max={3600}
            value={seconds}
            onInput={(e) => setSeconds(Number((e.target as HTMLInputElement).value) || 120)}
          />
        </label>
        <label>
          <input
            type="checkbox"
            checked={compact}
            onChange={(e) => setCompact((e.target as HTMLInputElement).checked)}
          />{' '}
          compact windows (fewer decisions a round)
        </label>
        <button type="submit" disabled={busy} data-testid="take-seat-submit">
          {busy ? 'Dealing…' : 'Sit down'}
        </button>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
