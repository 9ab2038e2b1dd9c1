import { useEffect, useState } from 'preact/hooks';
import { role, token } from '../lib/auth.js';
import { ladderPath, tournamentPath } from '../lib/router.js';
import { listLadders, type LadderSummary } from '../ladder/ladder-data.js';
import { keepAlive, spectateSocket, type LobbyNoticeMsg } from '../lib/spectate-socket.js';
import {
  featured,
  listGames,
  listTournaments,
  liveInfo,
  sampled,
  type GameSummary,
  type LiveInfo,
  type TournamentSummary,
} from './lobby-data.js';
import { GameBrowser } from './lobby-games.js';
import { FeaturedGame, GameRow, MiniTables } from './lobby-rows.js';
import { TakeSeat } from './take-seat.js';
import './lobby.css';

/** How often the live tables are read again between the lobby channel's notices. */
const LIVE_REFRESH_MS = 3000;

/** The live tables: all of them (the featured one may be a tournament's), and those outside any tournament (listed here). */
type Lobby = {
  live: GameSummary[];
  standalone: GameSummary[];
  tournaments: TournamentSummary[] | null;
  ladders: LadderSummary[] | null;
  info: Record<string, LiveInfo>;
};

/** A tournament's row, and its games under it when opened (read then, and again on each refresh). */
function TournamentGroup({ t, refresh }: { t: TournamentSummary; refresh: number }) {
  const [open, setOpen] = useState(false);
  const [games, setGames] = useState<GameSummary[] | null>(null);
  useEffect(() => {
    if (!open) return;
    let stale = false;
    listGames({ tournament: t.tournament_id }, 100).then(
      (p) => !stale && setGames(p.games),
      () => !stale && setGames([]),
    );
    return () => {
      stale = true;
    };
  }, [open, refresh, t.tournament_id]);
  return (
    <li class="card-row">
      <a
        href={tournamentPath(t.tournament_id)}
        class="game-link"
        data-testid="tournament-link"
        data-tournament-id={t.tournament_id}
      >
        <span class={`badge${t.status === 'running' ? ' live' : ''}`}>{t.status}</span>
        <span class="gid">{t.name}</span>
        <span class="agents">{t.tournament_id}</span>
        <span class="meta">
          {t.progress.played}/{t.progress.scheduled} games done · {t.progress.running} running
        </span>
      </a>
      <details
        class="t-group"
        onToggle={(e) => setOpen(e.currentTarget.open)}
        data-testid="tournament-group"
        data-tournament-id={t.tournament_id}
      >
        <summary>its games ({t.progress.scheduled})</summary>
        {!games ? (
          <p aria-busy="true">Loading its games…</p>
        ) : (
          <ul class="cards" data-testid="tournament-games">
            {games.map((g) => (
              <GameRow key={g.game_id} g={g} />
            ))}
          </ul>
        )}
      </details>
    </li>
  );
}

/** The ladders: a row each linking to its page (a ladder's games are on that page, not here). */
function Ladders({ ladders }: { ladders: readonly LadderSummary[] }) {
  return (
    <section aria-labelledby="ladders-h" data-testid="ladders">
      <h2 id="ladders-h">Ladders</h2>
      <ul class="cards">
        {ladders.map((l) => (
          <li key={l.ladder_id} class="card-row">
            <a
              href={ladderPath(l.ladder_id)}
              class="game-link"
              data-testid="ladder-link"
              data-ladder-id={l.ladder_id}
            >
              <span class="badge">{l.status}</span>
              <span class="gid">{l.name}</span>
              <span class="agents">{l.ladder_id}</span>
              <span class="meta">
                {l.entrants} entrants{l.suspended ? ` · ${l.suspended} suspended` : ''} · {l.deals}{' '}
                deals done
              </span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `/`: the featured live game, live tables, a filtered and paged list of games, and tournaments with their games; kept fresh by the lobby channel. */
export function LobbyPage() {
  const [lobby, setLobby] = useState<Lobby | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [connected, setConnected] = useState(false);
  // Bumped on a lobby notice: the game list and open tournaments read their page again.
  const [refresh, setRefresh] = useState(0);
  const tok = token.value;

  useEffect(() => {
    let stopped = false;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const load = async () => {
      try {
        const [live, standalone, tournaments, ladders] = await Promise.all([
          listGames({ status: 'running,created' }, 50).then((p) => p.games),
          listGames({ status: 'running,created', tournament: 'none' }, 50).then((p) => p.games),
          listTournaments().catch(() => null),
          listLadders().catch(() => null),
        ]);
        // A snapshot each for a few live games only (MINI_TABLES): the rest stay rows.
        const infos = await Promise.all(
          sampled(live, standalone).map(
            async (g) => [g.game_id, await liveInfo(g.game_id).catch(() => null)] as const,
          ),
        );
        const info: Record<string, LiveInfo> = {};
        for (const [id, i] of infos) if (i) info[id] = i;
        if (!stopped) {
          setLobby({ live, standalone, tournaments, ladders, info });
          setError(null);
        }
      } catch (e) {
        if (!stopped) setError(e instanceof Error ? e.message : String(e));
      }
    };
    // Notices come in bursts (a game ends, the next starts): one reload for the burst.
    const soon = (ended = false) => {
      if (ended) setRefresh((n) => n + 1);
      if (pending) return;
      pending = setTimeout(() => {
        pending = null;
        void load();
      }, 100);
    };
    void load();
    const socket = spectateSocket(tok);
    keepAlive(socket);
    socket.on('connect', () => {
      setConnected(true);
      socket.emit('lobby', tok ? { token: tok } : {});
    });
    socket.on('disconnect', () => setConnected(false));
    // The server says what the token is (the lobby's "Play a game yourself" form is an admin's).
    socket.on('lobby_joined', (m: { role: 'spectator' | 'researcher' | 'admin' }) => (role.value = m.role));
    socket.on('game_started', (_n: LobbyNoticeMsg) => soon());
    socket.on('game_ended', (_n: LobbyNoticeMsg) => soon(true));
    socket.on('tournament_started', () => soon());
    for (const n of ['tournament_game_ended', 'tournament_ended']) socket.on(n, () => soon(true));
    // Rounds, lives and leaders change between notices: refresh the live tables now and then.
    const timer = setInterval(() => soon(), LIVE_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
      if (pending) clearTimeout(pending);
      socket.close();
    };
  }, [tok]);

  const top = lobby ? featured(lobby.live, lobby.info) : null;
  const inTournaments = lobby ? lobby.live.length - lobby.standalone.length : 0;
  return (
    <main id="main" class="lobby">
      <h1>
        Lobby{' '}
        <span class={`conn ${connected ? 'ok' : 'off'}`} role="status">
          {connected ? 'live' : 'connecting…'}
        </span>
      </h1>
      {error && (
        <p class="error" role="alert">
          Could not load games: {error}
        </p>
      )}
      {!lobby ? (
        <p aria-busy="true">Loading games…</p>
      ) : (
        <>
          <section aria-labelledby="live-h">
            <h2 id="live-h">Live games</h2>
            {top && <FeaturedGame g={top} info={lobby.info[top.game_id]} />}
            <MiniTables
              games={lobby.live.filter((g) => g.game_id !== top?.game_id)}
              info={lobby.info}
            />
            {lobby.live.length === 0 ? (
              <p class="muted">
                No game is running. Start one with <code>POST /games</code> or{' '}
                <code>npm start</code> (demo table).
              </p>
            ) : (
              <>
                <ul class="cards" data-testid="live-games">
                  {lobby.standalone
                    .filter((g) => g.game_id !== top?.game_id)
                    .map((g) => (
                      <GameRow key={g.game_id} g={g} info={lobby.info[g.game_id]} />
                    ))}
                </ul>
                {inTournaments > 0 && (
                  <p class="muted">
                    …and {inTournaments} live in tournaments (below, under each tournament).
                  </p>
                )}
              </>
            )}
          </section>
          <TakeSeat admin={role.value === 'admin'} />
          <GameBrowser tournaments={lobby.tournaments} refresh={refresh} />
          {lobby.ladders && lobby.ladders.length > 0 && <Ladders ladders={lobby.ladders} />}
          {lobby.tournaments && (
            <section aria-labelledby="tour-h" data-testid="tournaments">
              <h2 id="tour-h">Tournaments</h2>
              {lobby.tournaments.length === 0 ? (
                <p class="muted">No tournaments yet.</p>
              ) : (
                <ul class="cards">
                  {lobby.tournaments.map((t) => (
                    <TournamentGroup key={t.tournament_id} t={t} refresh={refresh} />
                  ))}
                </ul>
              )}
            </section>
          )}
        </>
      )}
    </main>
  );
}
