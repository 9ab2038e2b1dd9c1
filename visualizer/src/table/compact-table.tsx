import { useMemo } from 'preact/hooks';
import { tableScene } from '../../../src/view/index.js';
import type { View } from '../panels/types.js';
import { TableSeat } from './table-seat.js';
import './table.css';
import { pct } from '../../../src/eval/chance-words.js';

type Props = {
  view: View;
  /** The seq the view is at (shown, and read by tests to see the table move on). */
  seq: number;
  /** The seat that leads (most lives, then resolve), or null on a tie for the top. */
  leader: string | null;
  /** The leader's chance to win (the public model's), where it has one. */
  chance?: number | null;
  /** The featured table is drawn larger. */
  large?: boolean;
  /** Says which game it is, before the seats (the table's accessible name). */
  label: string;
};

/**
 * A table in the lobby: the game page's ring of seats (the same scene and seat component) with
 * each seat's name, lives and who leads, and the round and phase on the felt. It draws the public
 * view it is given and nothing else, so it shows no more than the game page would.
 */
export function CompactTable({ view, seq, leader, chance = null, large = false, label }: Props) {
  const scene = useMemo(() => tableScene(view, [], 0), [view]);
  const w = view.world;
  const names = new Map(w.players.map((p) => [p.player_id, p.display_name || p.player_id]));
  const said = w.players.map((p) => `${names.get(p.player_id)} ${p.alive ? `${p.lives} ${p.lives === 1 ? 'life' : 'lives'}${leader === p.player_id ? `, leads${chance !== null ? ` with ${pct(chance)} to win` : ''}` : ''}` : 'out'}`);
  return (
    <div class={`ring mini${large ? ' large' : ''}`} role="img" aria-label={`${label}: round ${w.turn}, ${w.phase}; ${said.join('; ')}`} data-testid="mini-table" data-seq={seq}>
      <div class="felt">
        <div class="phase">{w.status === 'done' ? 'Game over' : w.phase}</div>
        <div class="sub">
          round <span data-testid="mini-round">{w.turn}</span>
        </div>
      </div>
      {w.players.map((p, i) => (
        <TableSeat key={p.player_id} seat={scene.seats[i]!} player={p} awaited={false} place={undefined} bubbles={[]} names={names} compact={{ leads: leader === p.player_id, chance: leader === p.player_id ? chance : null }} />
      ))}
    </div>
  );
}
