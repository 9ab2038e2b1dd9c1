import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Role } from '../lib/role-probe.js';
import { Controls } from './controls.js';
import { ForkLine } from './fork-line.js';
import { ForkList } from './fork-list.js';
import { HealthLine } from './health-line.js';
import { LeaderLine } from './leader-line.js';
import { ResultBanner } from './result-banner.js';
import { SeatHealthPanel } from './seat-health.js';
import type { GameRecordView, WireEvent } from './history.js';
import { phaseStops } from './navigation.js';
import { gameResult, scrubberMarkers, type GameEvent } from '../../../src/view/index.js';
import type { Player } from './player.js';
import { TablePanel } from '../panels/table-panel.js';
import { Panels } from '../panels/panels.js';
import { MovePanel } from '../panels/move-panel.js';
import { ExportButton } from './export-button.js';
import { TracePanel } from '../panels/trace-panel.js';
import { chancesAt } from './chances.js';
import { WinPanel } from './win-panel.js';

type Props = {
  player: Player;
  game: GameRecordView;
  role: Role;
  views: string[];
  view: string;
  setView: (v: string) => void;
  live: boolean;
  notice: string | null;
  /** Opened from a replay file: no export, nothing asked of the server. */
  offline?: boolean;
};

const CONNECTION_TEXT = { loading: 'loading…', connecting: 'connecting…', live: 'live', stale: 'stale: no news', offline: 'offline: reconnecting…', replay: 'replay', error: 'error' } as const;

function viewLabel(v: string, names: Map<string, string>): string {
  if (v.startsWith('plr_')) return `seat ${names.get(v) ?? v}`;
  return v;
}

/** The game page once its player exists: header, perspective, controls, the table and the panels. */
export function GameBody({ player, game, role, views, view, setView, live, notice, offline = false }: Props) {
  const timeline = player.timeline.value;
  const version = player.version.value;
  const cursor = player.cursor.value;
  const state = player.state.value;
  const conn = player.connection.value;
  const all = useMemo<WireEvent[]>(() => (timeline ? timeline.slice(timeline.first, timeline.head) : []), [timeline, version]);
  const stops = useMemo(() => phaseStops(all), [all]);
  const markers = useMemo(() => scrubberMarkers(all as unknown as GameEvent[]), [all]);
  const names = new Map(game.seats.map((s) => [s.player_id, s.display_name ?? s.agent]));
  const humans = game.seats.filter((s) => s.agent === 'human' || s.agent.startsWith('human:')).map((s) => s.player_id);
  const delay = typeof game.options.spectator_delay_ms === 'number' && game.options.spectator_delay_ms > 0 && role === 'spectator' ? game.options.spectator_delay_ms : 0;
  const result = useMemo(() => gameResult(all as unknown as GameEvent[]), [all]);
  // Only once the cursor reaches game_ended: a replay does not spoil its own ending.
  const ended = result && cursor >= result.seq ? result : null;
  // The page holds game_ended (it may have arrived while the page was open): nothing is live any
  // more, and a broadcast is no longer behind (its last event is released after all the others).
  const over = live && result !== null;
  useEffect(() => {
    if (over) player.endLive();
  }, [over, player]);
  const seek = (seq: number) => {
    player.pause();
    player.seek(seq);
  };
  const drawn = Boolean(timeline && state);
  const chances = timeline && state ? chancesAt(timeline, cursor, state) : null;
  const seatOrder = useMemo(() => [...game.seats].sort((a, b) => a.seat - b.seat).map((s) => s.player_id), [game]);
  // Decision traces hold what seats saw and thought: the admin view, or the researcher's once over.
  const traceable = !offline && ((role === 'admin' && view === 'admin') || (role !== 'spectator' && view === 'researcher' && game.status === 'ended'));
  const [trace, setTrace] = useState<{ seat: string; turn: number } | null>(null);
  // For bench:visualizer: when the table was first painted (effects run after the paint).
  useEffect(() => {
    if (drawn && performance.getEntriesByName('viz:table').length === 0) performance.mark('viz:table');
  }, [drawn]);
  // The broadcast view is always held back: by the delay and a full round (or to the game's end).
  const broadcast = game.options.spectators === 'broadcast' && (view === 'broadcast' || role === 'spectator');
  const secs = Math.round((game.options.spectator_delay_ms ?? 0) / 100) / 10;

  return (
    <main id="main" class="game">
      <div class="game-head">
        <h1>
          Game <code>{game.game_id}</code>
          {over ? (
            <span class="conn" role="status" data-testid="connection" data-state="ended">
              ended
            </span>
          ) : (
            <span class={`conn ${conn === 'live' ? 'ok' : conn === 'stale' || conn === 'error' ? 'stale' : conn === 'replay' ? '' : 'off'}`} role="status" data-testid="connection" data-state={conn}>
              {CONNECTION_TEXT[conn]}
            </span>
          )}
          {broadcast ? (
            <span class="badge" data-testid="broadcast-badge" title="Every seat's hands, plans, private speech and emotions, never the seed or the deck; each event once the round after its own has ended and the delay has passed">
              {result ? 'broadcast · the whole game' : game.options.broadcast_held ? 'broadcast · held to the end' : secs > 0 ? `broadcast · a round and ${secs} s behind` : 'broadcast · a round behind'}
            </span>
          ) : (
            delay > 0 && <span class="badge" title="Anonymous spectators watch this game behind a delay">delay {Math.round(delay / 100) / 10} s</span>
          )}
        </h1>
        {/* The view and the export of it stay on one row: alone, the button wrapped onto a line of its own. */}
        <span class="view-row">
          <label>
            view{' '}
            <select value={view} onChange={(e) => setView((e.target as HTMLSelectElement).value)} data-testid="view-select" aria-describedby="view-help">
              {views.map((v) => (
                <option key={v} value={v}>
                  {viewLabel(v, names)}
                </option>
              ))}
            </select>
          </label>
          {!offline && <ExportButton gameId={game.game_id} view={view} />}
        </span>
        <span id="view-help" class="muted">
          {offline ? `opened from a file, as the ${viewLabel(view, names)} view` : role === 'spectator' ? `${view === 'broadcast' ? (result ? 'broadcast: every seat, the whole game' : 'broadcast: every seat, a round behind') : 'public table'} (enter a researcher or admin token for more)` : `your token: ${role}`}
        </span>
        <ForkLine game={game} />
        <ForkList game={game} />
      </div>
      {notice && (
        <p class="error" role="alert" data-testid="view-notice">
          {notice}
        </p>
      )}
      {player.error.value && (
        <p class="error" role="alert">
          {player.error.value}
        </p>
      )}
      {!timeline || !state ? (
        <p aria-busy="true">Loading the game…</p>
      ) : (
        <>
          <Controls player={player} stops={stops} markers={markers} live={live && !over} />
          <LeaderLine state={state} names={names} chances={chances} />
          {ended && <ResultBanner result={ended} names={names} seek={seek} />}
          <SeatHealthPanel game={game} names={names} />
          <div class="game-grid">
            <div class="col">
              <TablePanel view={state} events={all} upTo={Math.max(0, cursor - timeline.first)} last={timeline.event(cursor)} placements={ended?.seats ?? null} chances={chances} />
              <WinPanel track={timeline.wins} version={version} now={chances} seats={seatOrder} names={names} range={[timeline.first, Math.max(timeline.first + 1, timeline.head)]} cursor={cursor} seek={seek} />
              <MovePanel player={player} all={all} cursor={cursor} names={names} humans={humans} {...(traceable ? { onTrace: (seat: string, seq: number) => setTrace({ seat, turn: timeline.event(seq)?.turn ?? 0 }) } : {})} />
              {trace && <TracePanel gameId={game.game_id} seat={trace.seat} turn={trace.turn} name={names.get(trace.seat) ?? trace.seat} close={() => setTrace(null)} />}
            </div>
            <div class="col">
              <Panels player={player} all={all} cursor={cursor} state={state} names={names} role={role} view={view} ended={game.status === 'ended'} seats={seatOrder} gameId={game.game_id} offline={offline} />
            </div>
          </div>
          <HealthLine player={player} state={state} cursor={cursor} head={timeline.head} live={live} role={role} />
        </>
      )}
    </main>
  );
}
