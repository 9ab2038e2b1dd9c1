import { useState } from 'preact/hooks';
import { role, setToken, token } from './lib/auth.js';
import { location, onLinkClick } from './lib/router.js';
import { GamePage } from './game/game-page.js';
import { lazyComponent } from './lib/lazy.js';

/** A page's place while its chunk loads: the skip link's target is there from the first frame. */
const LoadingPage = () => (
  <main id="main" aria-busy="true">
    <p>Loading…</p>
  </main>
);

// Its own chunk (matrices, colour scales): the game page and the lobby never load it.
const TournamentPage = lazyComponent(() => import('./tournament/tournament-page.js').then((m) => m.TournamentPage), LoadingPage);

// Its own chunk (the leaderboard's bars, the rating chart): only a ladder's page loads it.
const LadderPage = lazyComponent(() => import('./ladder/ladder-page.js').then((m) => m.LadderPage), LoadingPage);

// Its own chunk (lists, filters, small tables, their rules): a game page, the link people share,
// never loads it; the lobby pays one small request (~4 KB) after the entry, before its API calls.
const LobbyPage = lazyComponent(() => import('./lobby/lobby-page.js').then((m) => m.LobbyPage), LoadingPage);

// Its own chunk: most visits never open a file.
const ReplayPage = lazyComponent(() => import('./game/replay-page.js').then((m) => m.ReplayPage));

// Its own chunk (the decision form model, the seat's panels): only a person holding a seat loads it.
const SeatPage = lazyComponent(() => import('./seat/seat-page.js').then((m) => m.SeatPage), LoadingPage);

/** The token field: researchers and admins paste theirs; the server decides what it may see. */
function TokenForm() {
  const [draft, setDraft] = useState(token.value);
  const [open, setOpen] = useState(false);
  const r = role.value;
  if (!open)
    return (
      <button type="button" class="ghost" onClick={() => setOpen(true)} title="Enter a researcher or admin token">
        {token.value ? `token: ${r ?? 'set'}` : 'sign in with a token'}
      </button>
    );
  return (
    <form
      class="token-form"
      onSubmit={(e) => {
        e.preventDefault();
        setToken(draft);
        setOpen(false);
      }}
    >
      <label>
        Token <input type="password" autoComplete="off" value={draft} onInput={(e) => setDraft((e.target as HTMLInputElement).value)} placeholder="researcher or admin token" />
      </label>
      <button type="submit">Use</button>
      <button
        type="button"
        class="ghost"
        onClick={() => {
          setToken('');
          setDraft('');
          setOpen(false);
        }}
      >
        Forget
      </button>
    </form>
  );
}

/** The shell: header, routes (`/`, `/watch/games/:id`, `/watch/tournaments/:id`, `/watch/ladders/:id`, `/watch/replay`, `/seat/:game/:player`). */
export function App() {
  const { path } = location.value;
  const game = /^\/watch\/games\/([^/]+)\/?$/.exec(path);
  const tournament = /^\/watch\/tournaments\/([^/]+)\/?$/.exec(path);
  const ladder = /^\/watch\/ladders\/([^/]+)\/?$/.exec(path);
  const seat = /^\/seat\/([^/]+)\/([^/]+)\/?$/.exec(path);
  return (
    <div class="shell" onClick={onLinkClick}>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a href="/" class="brand">
          Tiltyard
        </a>
        <nav aria-label="Site">
          <a href="/">Lobby</a>
          <a href="/watch/replay">Open a replay</a>
          <a href="/docs" target="_blank" rel="noopener">
            API docs
          </a>
        </nav>
        <TokenForm />
      </header>
      {path === '/watch/replay' ? (
        <ReplayPage />
      ) : game ? (
        <GamePage key={`${game[1]}|${token.value}`} gameId={decodeURIComponent(game[1]!)} />
      ) : seat ? (
        <SeatPage key={path} gameId={decodeURIComponent(seat[1]!)} playerId={decodeURIComponent(seat[2]!)} />
      ) : tournament ? (
        <TournamentPage key={`${tournament[1]}|${token.value}`} id={decodeURIComponent(tournament[1]!)} />
      ) : ladder ? (
        <LadderPage key={`${ladder[1]}|${token.value}`} id={decodeURIComponent(ladder[1]!)} />
      ) : path === '/' ? (
        <LobbyPage key={token.value} />
      ) : (
        <main id="main">
          <h1>Not found</h1>
          <p>
            <a href="/">Back to the lobby</a>
          </p>
        </main>
      )}
    </div>
  );
}
