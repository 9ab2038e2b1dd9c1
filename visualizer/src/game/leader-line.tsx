import { leader, leaderWords, type StateView } from '../../../src/view/index.js';

/**
 * Who is ahead at the cursor, in words ("Ada leads, 2 lives to 1", "level"): the shared `leader`
 * over the view's public counters at the position, so it moves with the scrubber and a replay
 * before its end does not spoil who wins.
 */
export function LeaderLine({ state, names }: { state: StateView; names: Map<string, string> }) {
  const l = leader(state.world.players);
  const name = (id: string) =>
    names.get(id) ?? state.world.players.find((p) => p.player_id === id)?.display_name ?? 'a seat';
  return (
    <p
      class="leader-line"
      data-testid="leader"
      data-leader={l?.kind === 'leads' ? l.player_id : l ? 'level' : ''}
    >
      <span class="muted">standing: </span>
      <b>{leaderWords(l, name)}</b>
    </p>
  );
}
