import { leader, leaderWords, type StateView } from '../../../src/view/index.js';
import { chanceLeader, chanceWords, wonWords } from '../../../src/eval/chance-words.js';
import type { Chances } from '../../../src/eval/model.js';

/**
 * Who is ahead at the cursor, in words: the model's chances where it has them ("Ada is ahead: 61 %
 * to win, Bo next at 22 %"), and the shared `leader` over the view's public counters ("Ada leads,
 * 2 lives to 1", "level") beside them, or alone where the model has nothing to say. Both read the
 * position, so they move with the scrubber and a replay before its end does not spoil who wins.
 */
export function LeaderLine({ state, names, chances }: { state: StateView; names: Map<string, string>; chances: Chances | null }) {
  const l = leader(state.world.players);
  const name = (id: string) =>
    names.get(id) ?? state.world.players.find((p) => p.player_id === id)?.display_name ?? 'a seat';
  const ahead = chances ? chanceLeader(chances) : null;
  // At the end the chances are the result, and the standing of nobody left says nothing.
  if (chances && state.world.status === 'done')
    return (
      <p class="leader-line" data-testid="leader" data-leader={l?.kind === 'leads' ? l.player_id : l ? 'level' : ''} data-chance-leader={ahead?.player_id ?? 'level'}>
        <b data-testid="chance-words">{wonWords(chances, name)}</b>
      </p>
    );
  return (
    <p
      class="leader-line"
      data-testid="leader"
      data-leader={l?.kind === 'leads' ? l.player_id : l ? 'level' : ''}
      data-chance-leader={chances ? (ahead?.player_id ?? 'level') : ''}
    >
      {chances && (
        <>
          <b data-testid="chance-words">{chanceWords(chances, name)}</b>
          <span class="muted"> · standing: </span>
        </>
      )}
      {!chances && <span class="muted">standing: </span>}
      <b>{leaderWords(l, name)}</b>
    </p>
  );
}
