import { useEffect, useState } from 'preact/hooks';
import { location, setQuery } from '../lib/router.js';
import { agentSpecs, listGames, type GameFilter, type GameSummary, type TournamentSummary } from './lobby-data.js';
import { GameRow } from './lobby-rows.js';

/** Games a page of the lobby's list holds, unless the address says `?per=` (1–100). */
export const PAGE_SIZE = 20;
const perPage = (): number => {
  const n = Number(location.peek().query.get('per'));
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : PAGE_SIZE;
};

const STATUSES = [
  ['ended', 'ended'],
  ['running,created', 'live'],
  ['aborted,failed', 'aborted or failed'],
  ['', 'any status'],
] as const;

/** The filter the address asks for: by default ended games outside any tournament (theirs are under the tournament). */
function initialFilter(): GameFilter {
  const q = location.peek().query;
  const any = (v: string | null, dflt: string) => (v === 'any' ? '' : (v ?? dflt));
  return { status: any(q.get('status'), 'ended'), agent: q.get('agent') ?? '', tournament: any(q.get('tournament'), 'none') };
}

type Props = { tournaments: TournamentSummary[] | null; refresh: number };

/**
 * The lobby's game list: filters (status, agent, tournament) kept in the address, and pages of
 * PAGE_SIZE (or `?per=`) newest first (GET /games keyset cursors: a page stays put while new games start).
 * `refresh` changes when the lobby channel says something ended: the current page is read again.
 */
export function GameBrowser({ tournaments, refresh }: Props) {
  const [per] = useState(perPage);
  const [filter, setFilter] = useState<GameFilter>(initialFilter);
  const [agentDraft, setAgentDraft] = useState(filter.agent);
  // cursors[i] is the cursor of page i (null: the first page).
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [page, setPage] = useState<{ games: GameSummary[]; next_cursor: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [agents, setAgents] = useState<string[]>([]);

  useEffect(() => void agentSpecs().then(setAgents, () => undefined), []);
  const cursor = cursors.at(-1) ?? null;
  useEffect(() => {
    let stale = false;
    listGames(filter, per, cursor).then(
      (p) => {
        if (stale) return;
        setPage(p);
        setError(null);
      },
      (e: unknown) => !stale && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      stale = true;
    };
  }, [filter, cursor, refresh]);

  const apply = (next: GameFilter) => {
    setFilter(next);
    setCursors([null]);
    setQuery({ status: next.status === 'ended' ? null : next.status || 'any', agent: next.agent || null, tournament: next.tournament === 'none' ? null : next.tournament || 'any' });
  };

  return (
    <section aria-labelledby="games-h" data-testid="game-browser">
      <h2 id="games-h">Games</h2>
      <form
        class="filters"
        aria-label="Filter games"
        onSubmit={(e) => {
          e.preventDefault();
          apply({ ...filter, agent: agentDraft.trim() });
        }}
      >
        <label>
          status{' '}
          <select value={filter.status} onChange={(e) => apply({ ...filter, status: (e.target as HTMLSelectElement).value })} data-testid="filter-status">
            {STATUSES.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          agent{' '}
          <input list="agent-specs" value={agentDraft} placeholder="any agent" onInput={(e) => setAgentDraft((e.target as HTMLInputElement).value)} onChange={(e) => apply({ ...filter, agent: (e.target as HTMLInputElement).value.trim() })} data-testid="filter-agent" />
          <datalist id="agent-specs">
            {agents.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
        </label>
        <label>
          tournament{' '}
          <select value={filter.tournament} onChange={(e) => apply({ ...filter, tournament: (e.target as HTMLSelectElement).value })} data-testid="filter-tournament">
            <option value="none">not in a tournament</option>
            <option value="">any</option>
            {(tournaments ?? []).map((t) => (
              <option key={t.tournament_id} value={t.tournament_id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {error && (
        <p class="error" role="alert">
          Could not load games: {error}
        </p>
      )}
      {!page ? (
        <p aria-busy="true">Loading games…</p>
      ) : page.games.length === 0 ? (
        <p class="muted" data-testid="no-games">
          No games match.
        </p>
      ) : (
        <ul class="cards" data-testid="games-list">
          {page.games.map((g) => (
            <GameRow key={g.game_id} g={g} />
          ))}
        </ul>
      )}
      <nav class="pager" aria-label="Pages of games">
        <button type="button" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))} data-testid="page-newer">
          ← newer
        </button>
        <span class="muted" data-testid="page-number">
          page {cursors.length}
        </span>
        <button type="button" disabled={!page?.next_cursor} onClick={() => page?.next_cursor && setCursors([...cursors, page.next_cursor])} data-testid="page-older">
          older →
        </button>
      </nav>
    </section>
  );
}
