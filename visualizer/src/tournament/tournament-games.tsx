import { gamePath } from '../lib/router.js';
import type { TournamentGame } from './tournament-data.js';

const BADGE: Record<string, string> = { running: 'LIVE', created: 'queued', ended: 'ended', aborted: 'aborted', failed: 'failed' };

/** A game's deal and seat rotation from its schedule key (`r0002-t0013-d0000-p1`), for the row. */
function dealOf(key: string): string {
  const m = /-d(\d+)-p(\d+)$/.exec(key);
  return m ? `deal ${Number(m[1]) + 1} · rotation ${Number(m[2]) + 1}` : key;
}

/** Rounds in schedule order, each with its games in table order. */
function byRound(games: readonly TournamentGame[]): [number, TournamentGame[]][] {
  const rounds = new Map<number, TournamentGame[]>();
  for (const g of games) rounds.set(g.round, [...(rounds.get(g.round) ?? []), g]);
  return [...rounds.entries()].sort((a, b) => a[0] - b[0]).map(([r, gs]) => [r, gs.sort((a, b) => a.table - b.table || a.key.localeCompare(b.key))]);
}

/**
 * Every game of a tournament, grouped under its schedule round (counted from 1 on the page; the
 * API's `round` counts from 0), each with a status badge (LIVE for a game being played), its table,
 * deal and rotation, and the seats with their placements once it ended. A round-robin of one seed
 * is a single round: its header says so once rather than every row saying "round 0".
 */
export function TournamentGames({ games }: { games: readonly TournamentGame[] }) {
  const rounds = byRound(games);
  return (
    <div class="scroll">
      <table class="grid" data-testid="t-games">
        <thead>
          <tr>
            <th>game</th>
            <th>status</th>
            <th>table</th>
            <th>deal</th>
            <th>seats (placement)</th>
          </tr>
        </thead>
        {rounds.map(([round, gs]) => {
          const count = (s: string) => gs.filter((g) => g.status === s).length;
          return (
            <tbody key={round} data-testid="t-round" data-round={round + 1}>
              <tr class="round-head">
                <th colSpan={5} scope="rowgroup">
                  Round {round + 1} of {rounds.length} · {gs.length} games · {count('ended')} ended{count('running') ? ` · ${count('running')} live` : ''}
                  {count('failed') ? ` · ${count('failed')} failed` : ''}
                </th>
              </tr>
              {gs.map((g) => (
                <tr key={g.game_id}>
                  <td>
                    <a href={gamePath(g.game_id)} data-testid="t-game" data-game-id={g.game_id} class="mono">
                      {g.game_id}
                    </a>
                  </td>
                  <td>
                    <span class={`badge${g.status === 'running' ? ' live' : ''}`} data-testid="t-game-status">
                      {BADGE[g.status] ?? g.status}
                    </span>
                    {g.error ? ` ${g.error}` : ''}
                  </td>
                  <td>{g.table + 1}</td>
                  <td>{dealOf(g.key)}</td>
                  <td>{g.seats.map((s, i) => `${s}${g.placements ? ` (${g.placements[i]})` : ''}`).join(' · ')}</td>
                </tr>
              ))}
            </tbody>
          );
        })}
      </table>
    </div>
  );
}
