import { gamePath } from '../lib/router.js';
import { lazyComponent } from '../lib/lazy.js';

// Its own chunk, loaded once a live game is drawn: the game page's bundle does not grow with it.
const CompactTable = lazyComponent(
  () => import('../table/compact-table.js').then((m) => m.CompactTable),
  () => <div class="ring mini" aria-busy="true" />,
);
import type { GameSummary, LiveInfo } from './lobby-data.js';
import { pct } from '../../../src/eval/chance-words.js';

const agentsOf = (g: GameSummary): string => [...g.seats].sort((a, b) => a.seat - b.seat).map((s) => s.display_name ?? s.agent).join(' · ');
const when = (iso: string | null): string => (iso ? new Date(iso).toLocaleString() : '');

const STATUS_BADGE: Record<string, string> = { running: 'LIVE', created: 'queued', ended: 'replay', aborted: 'aborted', failed: 'failed' };

function winnerOf(g: GameSummary): string | null {
  const w = g.placements?.find((p) => p.placement === 1);
  if (!w) return null;
  const seat = g.seats.find((s) => s.player_id === w.player_id);
  return seat?.display_name ?? seat?.agent ?? w.player_id;
}

/** What a live game's row says: its round, phase and who leads with their chance ("Ada leads · 61 %", from its public snapshot), else its length. */
function liveMeta(g: GameSummary, i: LiveInfo | undefined) {
  if (!i) return <>{g.last_seq} events</>;
  return (
    <>
      round {i.turn} · {i.phase} · {i.alive} alive ·{' '}
      {i.leader ? (
        <span data-testid="live-leader">
          <b>{i.leader}</b> leads{i.chance !== null && ` · ${pct(i.chance)}`}
        </span>
      ) : (
        'even at the top'
      )}
    </>
  );
}

/** One game as a link to its page: status badge, id, agents, and its round (live) or result (ended). */
export function GameRow({ g, info }: { g: GameSummary; info?: LiveInfo | undefined }) {
  const winner = winnerOf(g);
  const live = g.status === 'running' || g.status === 'created';
  return (
    <li class="card-row">
      <a href={gamePath(g.game_id)} class="game-link" data-game-id={g.game_id}>
        <span class={`badge${live ? ' live' : ''}`}>{STATUS_BADGE[g.status] ?? g.status}</span>
        <span class="gid">{g.game_id}</span>
        <span class="agents">{agentsOf(g)}</span>
        <span class="meta">
          {live ? (
            liveMeta(g, info)
          ) : (
            <>
              {winner ? <>winner: <b>{winner}</b> · </> : null}
              {g.last_seq} events · {when(g.ended_at)}
            </>
          )}
        </span>
      </a>
    </li>
  );
}

/** The featured live game: the one furthest along, drawn larger at the top of the lobby, as a table when its snapshot is in. */
export function FeaturedGame({ g, info }: { g: GameSummary; info: LiveInfo | undefined }) {
  return (
    <div class="featured" data-testid="featured">
      <div class="muted">Featured live game</div>
      <a href={gamePath(g.game_id)} class="game-link" data-game-id={g.game_id}>
        <span class="badge live">LIVE</span>
        <span class="gid">{g.game_id}</span>
        <span class="agents">{agentsOf(g)}</span>
        <span class="meta">{liveMeta(g, info)}</span>
      </a>
      {info && (
        <div class="mini-tables" data-game-id={g.game_id}>
          <CompactTable view={info.view} seq={info.seq} leader={info.leader_id} chance={info.chance} large label={`Featured game ${g.game_id}`} />
        </div>
      )}
    </div>
  );
}

/**
 * The other sampled live games as small tables (lichess TV's wall of boards), each a link to its
 * page. Only games with a snapshot are drawn: the lobby reads at most MINI_TABLES of them.
 */
export function MiniTables({ games, info }: { games: GameSummary[]; info: Record<string, LiveInfo> }) {
  const drawn = games.filter((g) => info[g.game_id]);
  if (drawn.length === 0) return null;
  return (
    <ul class="mini-tables" data-testid="mini-tables" aria-label="Live tables">
      {drawn.map((g) => {
        const i = info[g.game_id]!;
        return (
          <li key={g.game_id} data-game-id={g.game_id}>
            <a href={gamePath(g.game_id)} class="game-link" aria-label={`Watch game ${g.game_id}`}>
              <CompactTable view={i.view} seq={i.seq} leader={i.leader_id} chance={i.chance} label={`Game ${g.game_id}`} />
            </a>
          </li>
        );
      })}
    </ul>
  );
}
