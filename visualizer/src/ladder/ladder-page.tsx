import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api.js';
import { token } from '../lib/auth.js';
import { loadLadder, type Ladder } from './ladder-data.js';
import { ladderModel } from './ladder-model.js';
import { LadderGames, Leaderboard, RatingChart } from './ladder-views.js';
import './ladder.css';

/** How often the page reads the ladder again: a ladder has no socket notices, and a deal takes seconds to minutes. */
const REFRESH_MS = 5000;

/**
 * `/watch/ladders/:id` (docs/ladder.md, "How to read the page"): the leaderboard with its intervals as
 * bars, each entrant's rating over the deals, the recent and live games, newcomers marked, and the
 * entrants no longer seated with their cause in words. GET /ladders/:id holds only what ended games
 * show (placements): nothing hidden. ladderModel computes what is drawn; the components only draw it.
 */
export function LadderPage({ id }: { id: string }) {
  const [ladder, setLadder] = useState<Ladder | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tok = token.value;

  useEffect(() => {
    let stopped = false;
    const abort = new AbortController();
    const load = async () => {
      try {
        const l = await loadLadder(id, abort.signal);
        if (!stopped) {
          setLadder(l);
          setError(null);
        }
      } catch (e) {
        if (stopped) return;
        setError(e instanceof ApiError && e.status === 404 ? `There is no ladder ${id}.` : e instanceof Error ? e.message : String(e));
      }
    };
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      stopped = true;
      abort.abort();
      clearInterval(timer);
    };
  }, [id, tok]);

  if (!ladder)
    return (
      <main id="main" aria-busy={error ? undefined : 'true'}>
        <h1>Ladder {id}</h1>
        {error ? (
          <>
            <p class="error" role="alert">
              {error}
            </p>
            <p>
              <a href="/">Back to the lobby</a>
            </p>
          </>
        ) : (
          <p>Loading…</p>
        )}
      </main>
    );
  const m = ladderModel(ladder);
  return (
    <main id="main" class="ladder">
      <h1>
        <span data-testid="ladder-name">{ladder.name}</span>{' '}
        <span class="badge" data-testid="ladder-status">
          {ladder.status}
        </span>
      </h1>
      <p class="muted">
        <span data-testid="ladder-summary">{m.summary}</span> <span class="mono">{ladder.ladder_id}</span>
      </p>
      {error && <p class="error">Could not refresh: {error}</p>}

      <section class="panel" aria-labelledby="board-h">
        <h2 id="board-h">Leaderboard</h2>
        <Leaderboard rows={m.rows} axis={m.axis} />
        <p class="muted">Ranked by the rating over every done deal. The bar is its 95 % bootstrap interval over whole deals: where two bars overlap, the ladder cannot tell those entrants apart yet, and that is where it sends the next deals. A newcomer is seated first until it has its placement games.</p>
      </section>

      <section class="panel" aria-labelledby="chart-h">
        <h2 id="chart-h">Ratings over the deals</h2>
        {m.chart ? <RatingChart chart={m.chart} /> : <p class="muted">No deal is done yet.</p>}
      </section>

      {m.absent.length > 0 && (
        <section class="panel ladder-absent" aria-labelledby="absent-h" data-testid="ladder-absent">
          <h2 id="absent-h">Not seated</h2>
          {m.absent.map((a) => (
            <p key={a.agent} data-testid="absent" data-agent={a.agent}>
              {a.sentence}
            </p>
          ))}
        </section>
      )}

      <section class="panel" aria-labelledby="games-h">
        <h2 id="games-h">Recent games</h2>
        <LadderGames games={m.games} />
      </section>
    </main>
  );
}
