import { branchPoint, drawsPhrase, forkAgents, forkOutcome, type ForkSummary } from '../../../src/view/index.js';
import type { GameRecordView } from './history.js';

/** The forks listed open; past this many the list starts collapsed to its one-line summary. */
const OPEN_UP_TO = 5;

/** One fork as a sentence: "game_f1 branches at round 4 (seq 160), with new draws (reseed 7), played by …: turtle won." */
function ForkItem({ gameId, fork }: { gameId: string; fork: ForkSummary }) {
  const here = `/watch/games/${encodeURIComponent(gameId)}?seq=${fork.seq}`;
  return (
    <li data-testid="fork-item" data-game-id={fork.game_id} data-status={fork.status}>
      <a href={`/watch/games/${encodeURIComponent(fork.game_id)}`} data-testid="fork-link">
        <code>{fork.game_id}</code>
      </a>{' '}
      branches at{' '}
      <a href={here} data-testid="fork-point">
        {branchPoint(fork.seq, fork.round)}
      </a>
      , with {drawsPhrase(fork)}, played by {forkAgents(fork)}: <span data-testid="fork-outcome">{forkOutcome(fork)}</span>.
    </li>
  );
}

/**
 * The games forked from this one (GET /games/:id's `forks`, as this viewer may see them): each
 * links to the fork, to its branch point here, and says how it went. Nothing when there are none.
 */
export function ForkList({ game }: { game: GameRecordView }) {
  const forks = game.forks ?? [];
  const count = game.fork_count ?? forks.length;
  if (count === 0) return null;
  return (
    <details class="fork-list" data-testid="fork-list" open={count <= OPEN_UP_TO}>
      <summary>
        {count === 1 ? 'One game was forked from this one' : `${count} games were forked from this one`}
        {count > forks.length ? ` (the first ${forks.length} here)` : ''}
      </summary>
      <ul>
        {forks.map((f) => (
          <ForkItem key={f.game_id} gameId={game.game_id} fork={f} />
        ))}
      </ul>
    </details>
  );
}
