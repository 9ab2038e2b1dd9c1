import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api.js';
import { token } from '../lib/auth.js';
import { keepAlive, spectateSocket } from '../lib/spectate-socket.js';
import { loadTournament, type Attacks, type Interval, type LlmHealth, type Tournament } from './tournament-data.js';
import { CellAttacks, HeadToHeadMatrix, ManipulationMatrix } from './tournament-matrices.js';
import { TournamentGames } from './tournament-games.js';
import './tournament.css';

/** WPA per decision in percentage points, signed: a decision moves a seat's chance by a fraction of one. */
const ppCi = (x: Interval): string => {
  const pp = (v: number) => `${v < 0 ? '−' : '+'}${Math.abs(v * 100).toFixed(2)}`;
  return x ? `${pp(x.value)} [${pp(x.low)}, ${pp(x.high)}]` : '—';
};
const ci = (x: Interval, d = 2): string => (x ? `${x.value.toFixed(d)} [${x.low.toFixed(d)}, ${x.high.toFixed(d)}]` : '—');
const share = (x: number | null): string => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);

/** An LLM entrant's cost and error rates beside its standing; dashes for agents that call no model. */
function LlmCells({ h }: { h: LlmHealth | undefined }) {
  if (!h)
    return (
      <>
        <td>—</td>
        <td>—</td>
      </>
    );
  return (
    <>
      <td data-testid="llm-cost">${h.cost_usd.toFixed(4)}</td>
      <td data-testid="llm-errors" title={`${h.failed_games} of ${h.games} games failed · ${h.fell_back} of ${h.decisions} decisions fell back`}>
        {share(h.error_rate)} · {share(h.fallback_rate)}
      </td>
    </>
  );
}

/**
 * `/watch/tournaments/:id` (and `/tournaments/:id` from a browser): progress, standings with rating
 * intervals, the head-to-head and who-manipulated-whom matrices, and every game. Everything comes
 * from the public routes (GET /tournaments/:id and /attacks: ended games only); the lobby channel's
 * tournament notices reload it as games end.
 */
export function TournamentPage({ id }: { id: string }) {
  const [data, setData] = useState<{ t: Tournament; attacks: Attacks } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [connected, setConnected] = useState(false);
  const [sel, setSel] = useState<{ agent: string; target: string } | null>(null);
  const tok = token.value;

  useEffect(() => {
    let stopped = false;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const abort = new AbortController();
    const load = async () => {
      try {
        const d = await loadTournament(id, abort.signal);
        if (!stopped) {
          setData(d);
          setError(null);
        }
      } catch (e) {
        if (stopped) return;
        setError(e instanceof ApiError && e.status === 404 ? `There is no tournament ${id}.` : e instanceof Error ? e.message : String(e));
      }
    };
    const soon = () => {
      if (pending) return;
      pending = setTimeout(() => {
        pending = null;
        void load();
      }, 150);
    };
    void load();
    const socket = spectateSocket(tok);
    keepAlive(socket);
    socket.on('connect', () => {
      setConnected(true);
      socket.emit('lobby', tok ? { token: tok } : {});
    });
    socket.on('disconnect', () => setConnected(false));
    const mine = (n: { tournament_id?: string }) => n.tournament_id === id && soon();
    socket.on('tournament_started', mine);
    socket.on('tournament_game_ended', mine);
    socket.on('tournament_ended', mine);
    // Games start between notices (the running count): refresh now and then while it runs.
    const timer = setInterval(() => {
      if (!stopped) soon();
    }, 5000);
    return () => {
      stopped = true;
      abort.abort();
      clearInterval(timer);
      if (pending) clearTimeout(pending);
      socket.close();
    };
  }, [id, tok]);

  if (error && !data)
    return (
      <main id="main">
        <h1>Tournament {id}</h1>
        <p class="error" role="alert">
          {error}
        </p>
        <p>
          <a href="/">Back to the lobby</a>
        </p>
      </main>
    );
  if (!data)
    return (
      <main id="main" aria-busy="true">
        <h1>Tournament {id}</h1>
        <p>Loading…</p>
      </main>
    );
  const { t, attacks } = data;
  // Only admins and researchers are sent it, and only for tournaments with LLM entrants.
  const llm = t.llm && Object.keys(t.llm).length ? t.llm : null;
  const wpa = t.standings.some((s) => s.wpa !== undefined);
  const entrants = t.config.entrants;
  const p = t.progress;
  const cell = sel ? attacks.cells.find((c) => c.agent === sel.agent && c.target === sel.target) : undefined;
  return (
    <main id="main" class="tournament">
      <h1>
        <span data-testid="t-name">{t.name}</span>
        <span class="badge" data-testid="t-status">
          {t.status}
        </span>
        {/* The live-updates badge only while games can still change: an ended tournament is final. */}
        {t.status === 'running' || t.status === 'created' ? (
          <span class={`conn ${connected ? 'ok' : 'off'}`} role="status" data-testid="t-updates">
            {connected ? 'updating live' : 'connecting…'}
          </span>
        ) : null}
      </h1>
      <p class="muted">
        {t.config.format} · {t.config.seats} seats a table · {entrants.length} entrants · <span class="mono">{t.tournament_id}</span>
        {t.config.seed !== null ? <> · seed {t.config.seed}</> : ' · seed hidden until it ends'}
      </p>
      {error && <p class="error">Could not refresh: {error}</p>}

      <section class="panel" aria-labelledby="prog-h">
        <h2 id="prog-h">Progress</h2>
        <p data-testid="t-progress">
          <b data-testid="t-played">{p.played}</b> of <span data-testid="t-scheduled">{p.scheduled}</span> games done · <span data-testid="t-running">{p.running}</span> running
          {p.failed > 0 ? ` · ${p.failed} failed` : ''}
        </p>
        <progress max={Math.max(1, p.scheduled)} value={p.played} aria-label="games done" />
      </section>

      <section class="panel" aria-labelledby="stand-h">
        <h2 id="stand-h">Standings</h2>
        {/* Wider than a phone: focusable so the keyboard can scroll it. */}
        <div class="scroll-x" role="region" aria-label="Standings table" tabIndex={0}>
          <table class="grid" data-testid="standings">
            <thead>
              <tr>
                <th>#</th>
                <th>agent</th>
                <th title="the rating: one Plackett–Luce fit over every ended game, on openskill’s scale — the ranking key, with its 95 % bootstrap interval">rating [95 %]</th>
                <th title="the rating’s posterior standard deviation">σ</th>
                <th>games</th>
                <th>wins</th>
                <th title="win rate with its 95 % bootstrap interval">win rate [95 %]</th>
                <th title="mean placement with its 95 % bootstrap interval">mean place [95 %]</th>
                {wpa && <th title="skill: the mean win probability each decision added to its own seat, in percentage points, with its 95 % bootstrap interval">WPA per decision, pp [95 %]</th>}
                {llm && <th title="what its provider calls cost over the tournament (LLM entrants)">LLM cost</th>}
                {llm && <th title="share of its games that failed · share of its decisions that fell back to the rules">failed · fell back</th>}
              </tr>
            </thead>
            <tbody>
              {t.standings.map((s, i) => (
                <tr key={s.agent} data-testid="standing" data-agent={s.agent}>
                  <td>{i + 1}</td>
                  <td>{s.agent}</td>
                  <td>{s.rating_ci ? ci(s.rating_ci, 1) : s.mu.toFixed(1)}</td>
                  <td>{s.sigma.toFixed(2)}</td>
                  <td>{s.games}</td>
                  <td>{s.wins}</td>
                  <td>{ci(s.win_rate)}</td>
                  <td>{ci(s.placement_ci)}</td>
                  {wpa && <td data-testid="standing-wpa">{ppCi(s.wpa ?? null)}</td>}
                  {llm && <LlmCells h={llm[s.agent]} />}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p class="muted">From ended games only, ranked by the rating, which does not depend on the order games ended in. Intervals are 95 % bootstrap intervals over whole duplicate groups: where two agents’ rating intervals do not overlap, their order is settled.</p>
      </section>

      <div class="two-col">
        <section class="panel" aria-labelledby="h2h-h">
          <h2 id="h2h-h">Head to head</h2>
          <HeadToHeadMatrix entrants={entrants} cells={t.head_to_head} />
        </section>
        <section class="panel" aria-labelledby="manip-h">
          <h2 id="manip-h">Who manipulated whom</h2>
          <ManipulationMatrix entrants={entrants} cells={attacks.cells} sel={sel} onSelect={setSel} />
          <p class="muted">From {attacks.games_counted} ended games.</p>
        </section>
      </div>
      {sel && <CellAttacks cell={cell} sel={sel} />}

      <section class="panel" aria-labelledby="games-h">
        <h2 id="games-h">Games ({t.games.length})</h2>
        <TournamentGames games={t.games} />
      </section>
    </main>
  );
}
