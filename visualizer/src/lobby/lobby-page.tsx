import { useEffect, useState } from 'preact/hooks';
import { token } from '../lib/auth.js';
import { gamePath, tournamentPath } from '../lib/router.js';
import { keepAlive, spectateSocket, type LobbyNoticeMsg } from '../lib/spectate-socket.js';
import { listGames, listTournaments, liveInfo, type GameSummary, type LiveInfo, type TournamentSummary } from './lobby-data.js';

type Lobby = { live: GameSummary[]; ended: GameSummary[]; tournaments: TournamentSummary[] | null; info: Record<string, LiveInfo> };

const agentsOf = (g: GameSummary): string => [...g.seats].sort((a, b) => a.seat - b.seat).map((s) => s.display_name ?? s.agent).join(' · ');
const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '');

/** `/`: live games, recently ended ones and tournaments, kept fresh by the lobby channel. */
export function LobbyPage() {
  const [lobby, setLobby] = useState<Lobby | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [connected, setConnected] = useState(false);
  const tok = token.value;

  useEffect(() => {
    let stopped = false;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const load = async () => {
      try {
        const [live, ended, tournaments] = await Promise.all([listGames('running,created', 50), listGames('ended', 20), listTournaments().catch(() => null)]);
        const infos = await Promise.all(live.filter((g) => g.status === 'running').map(async (g) => [g.game_id, await liveInfo(g.game_id).catch(() => null)] as const));
        const info: Record<string, LiveInfo> = {};
        for (const [id, i] of infos) if (i) info[id] = i;
        if (!stopped) {
          setLobby({ live, ended, tournaments, info });
          setError(null);
        }
      } catch (e) {
        if (!stopped) setError(e instanceof Error ? e.message : String(e));
      }
    };
    // Notices come in bursts (a game ends, the next starts): one reload for the burst.
    const soon = () => {
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
    socket.on('game_started', (_n: LobbyNoticeMsg) => soon());
    socket.on('game_ended', (_n: LobbyNoticeMsg) => soon());
    for (const n of ['tournament_started', 'tournament_game_ended', 'tournament_ended']) socket.on(n, () => soon());
    // Rounds and leaders change between notices: refresh the live rows now and then.
    const timer = setInterval(soon, 5000);
    return () => {
      stopped = true;
      clearInterval(timer);
      if (pending) clearTimeout(pending);
      socket.close();
    };
  }, [tok]);

  return (
    <main id="main" class="lobby">
      <h1>
        Lobby <span class={`conn ${connected ? 'ok' : 'off'}`} role="status">{connected ? 'live' : 'connecting…'}</span>
      </h1>
      {error && <p class="error" role="alert">Could not load games: {error}</p>}
      {!lobby ? (
        <p aria-busy="true">Loading games…</p>
      ) : (
        <>
          <section aria-labelledby="live-h">
            <h2 id="live-h">Live games</h2>
            {lobby.live.length === 0 ? (
              <p class="muted">No game is running. Start one with <code>POST /games</code> or <code>npm start</code> (demo table).</p>
            ) : (
              <ul class="cards" data-testid="live-games">
                {lobby.live.map((g) => {
                  const i = lobby.info[g.game_id];
                  return (
                    <li key={g.game_id} class="card-row">
                      <a href={gamePath(g.game_id)} class="game-link" data-game-id={g.game_id}>
                        <span class="badge live">{g.status === 'running' ? 'LIVE' : 'queued'}</span>
                        <span class="gid">{g.game_id}</span>
                        <span class="agents">{agentsOf(g)}</span>
                        <span class="meta">
                          {i ? (
                            <>
                              round {i.turn} · {i.phase} · {i.alive} alive{i.leader ? <> · leads: <b>{i.leader}</b></> : ' · level'}
                            </>
                          ) : (
                            `${g.last_seq} events`
                          )}
                        </span>
                      </a>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
          <section aria-labelledby="ended-h">
            <h2 id="ended-h">Recently ended</h2>
            {lobby.ended.length === 0 ? (
              <p class="muted">None yet.</p>
            ) : (
              <ul class="cards" data-testid="ended-games">
                {lobby.ended.map((g) => {
                  const winner = g.placements?.find((p) => p.placement === 1);
                  const seat = winner ? g.seats.find((s) => s.player_id === winner.player_id) : undefined;
                  return (
                    <li key={g.game_id} class="card-row">
                      <a href={gamePath(g.game_id)} class="game-link" data-game-id={g.game_id}>
                        <span class="badge">replay</span>
                        <span class="gid">{g.game_id}</span>
                        <span class="agents">{agentsOf(g)}</span>
                        <span class="meta">
                          {winner ? <>winner: <b>{seat?.display_name ?? seat?.agent ?? winner.player_id}</b> · </> : null}
                          {g.last_seq} events · {when(g.ended_at)}
                        </span>
                      </a>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
          {lobby.tournaments && (
            <section aria-labelledby="tour-h" data-testid="tournaments">
              <h2 id="tour-h">Tournaments</h2>
              {lobby.tournaments.length === 0 ? (
                <p class="muted">No tournaments yet.</p>
              ) : (
                <ul class="cards">
                  {lobby.tournaments.map((t) => (
                    <li key={t.tournament_id} class="card-row">
                      <a href={tournamentPath(t.tournament_id)} class="game-link" data-testid="tournament-link" data-tournament-id={t.tournament_id}>
                        <span class={`badge${t.status === 'running' ? ' live' : ''}`}>{t.status}</span>
                        <span class="gid">{t.name}</span>
                        <span class="agents">{t.tournament_id}</span>
                        <span class="meta">
                          {t.progress.played}/{t.progress.scheduled} games done · {t.progress.running} running
                        </span>
                      </a>
                    </li>
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
