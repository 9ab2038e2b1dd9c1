import { useEffect, useMemo, useState } from 'preact/hooks';
import { token } from '../lib/auth.js';
import { ApiError } from '../lib/api.js';
import { probeRole, viewsFor, type Role } from '../lib/role-probe.js';
import { setQuery, location } from '../lib/router.js';
import { fetchGame, type GameRecordView } from './history.js';
import { Player } from './player.js';
import { GameBody } from './game-body.js';

type Setup = { game: GameRecordView; role: Role; views: string[] };

/** `/watch/games/:id?seq=&view=`: loads the game and the caller's role, then the player for the chosen view. */
export function GamePage({ gameId }: { gameId: string }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = location.peek().query;
  const [view, setView] = useState<string>(query.get('view') ?? '');
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    void (async () => {
      try {
        const game = await fetchGame(gameId, abort.signal);
        const role = await probeRole(token.value);
        const views = viewsFor(role, [...game.seats].sort((a, b) => a.seat - b.seat).map((s) => s.player_id), game.options.spectators === 'broadcast');
        setSetup({ game, role, views });
        const best = views.includes('admin') ? 'admin' : (views.at(-1) ?? 'spectator');
        setView((v) => {
          if (v && views.includes(v)) return v;
          if (v) setNotice(`The ${v} view is not open to this page's token (${role}); showing the ${best} view.`);
          return best;
        });
      } catch (e) {
        if (abort.signal.aborted) return;
        setError(e instanceof ApiError && e.status === 404 ? `There is no game ${gameId}.` : e instanceof Error ? e.message : String(e));
      }
    })();
    return () => abort.abort();
  }, [gameId]);

  useEffect(() => {
    if (setup && view) setQuery({ view });
  }, [setup, view]);

  if (error)
    return (
      <main id="main">
        <h1>Game {gameId}</h1>
        <p class="error" role="alert">
          {error}
        </p>
        <p>
          <a href="/">Back to the lobby</a>
        </p>
      </main>
    );
  if (!setup || !view)
    return (
      <main id="main" aria-busy="true">
        <h1>Game {gameId}</h1>
        <p>Loading…</p>
      </main>
    );
  return <PlayerView key={view} setup={setup} gameId={gameId} view={view} setView={setView} notice={notice} />;
}

function PlayerView({ setup, gameId, view, setView, notice }: { setup: Setup; gameId: string; view: string; setView: (v: string) => void; notice: string | null }) {
  const live = setup.game.status === 'running' || setup.game.status === 'created';
  const player = useMemo(() => new Player(gameId, view, token.value, live, setup.game.status === 'ended', setup.game.last_seq), [gameId, view]);
  useEffect(() => {
    const seq = location.peek().query.get('seq');
    void player.start(seq !== null && /^\d+$/.test(seq) ? Number(seq) : null);
    return () => player.close();
  }, [player]);
  // Deep link: the URL follows the position (not while following a live head).
  const cursor = player.cursor.value;
  const following = player.following.value;
  const folded = player.history.value === 'loaded';
  // Once the position rests: history.replaceState on every frame of a scrub or a 32× replay cost
  // more than the seek itself (browsers rate-limit it).
  // Not before the history is in: the head shown meanwhile must not replace a deep link's seq.
  useEffect(() => {
    if (!folded) return;
    const t = setTimeout(() => setQuery({ seq: following ? null : cursor }), 250);
    return () => clearTimeout(t);
  }, [cursor, following, folded]);
  return <GameBody player={player} game={setup.game} role={setup.role} views={setup.views} view={view} setView={setView} live={live} notice={notice} />;
}
