import { useMemo, useState } from 'preact/hooks';
import { METER_EMOTIONS, tableScene, type GameEvent, type Link } from '../../../src/view/index.js';
import type { View, WireEventLike } from './types.js';
import { TableSeat } from '../table/table-seat.js';
import { TableOverlay } from '../table/table-overlay.js';
import { EMOTION_COLOURS } from '../table/emotion-colours.js';
import '../table/table.css';

type Props = {
  view: View;
  /** The events the page holds, and how many of them are up to the position (the view's). */
  events: readonly WireEventLike[];
  upTo: number;
  /** The last event shown (for who is awaited now). */
  last: WireEventLike | undefined;
  placements: { player_id: string; placement: number }[] | null;
  /** Each seat's chance to win at the position, or null where the model has none. */
  chances?: Readonly<Record<string, number>> | null;
};

type Lines = 'none' | Link['kind'];

/**
 * The table: seats in a ring with their numbers, cards, meters or tells; attacks in flight as
 * arrows; this round's talk as bubbles and notes; trust or grievance as lines on request. It draws
 * `tableScene` (src/view) and nothing else: what the view does not hold is not drawn.
 */
export function TablePanel({ view, events, upTo, last, placements, chances = null }: Props) {
  const [lines, setLines] = useState<Lines>('none');
  const scene = useMemo(() => tableScene(view, events as unknown as readonly GameEvent[], upTo), [view, events, upTo]);
  const w = view.world;
  const awaited = last?.type === 'reaction_requested' ? String((last.payload as { player_id?: string }).player_id ?? '') : null;
  const place = new Map((placements ?? []).map((p) => [p.player_id, p.placement]));
  const names = new Map(w.players.map((p) => [p.player_id, p.display_name || p.player_id]));
  const links = lines === 'none' ? [] : scene.links.filter((l) => l.kind === lines);
  return (
    <section class="panel table-wrap" aria-labelledby="table-h" data-testid="table">
      <div class="table-head">
        <h2 id="table-h">Table</h2>
        {scene.links.length > 0 && (
          <label>
            lines{' '}
            <select value={lines} onChange={(e) => setLines((e.target as HTMLSelectElement).value as Lines)} data-testid="table-lines">
              <option value="none">none</option>
              <option value="trust">trust</option>
              <option value="grievance">grievance</option>
            </select>
          </label>
        )}
      </div>
      <div class="ring">
        <div class="felt" aria-live="off">
          <div class="phase" data-testid="phase">
            {w.status === 'done' ? 'Game over' : w.phase}
          </div>
          <div class="sub">
            round <span data-testid="round">{w.turn}</span> · deck {w.arena.deck_count} · discard {w.discard.length}
          </div>
          {w.stack.length > 0 && <div class="sub">stack: {w.stack.length} waiting</div>}
          {awaited && <div class="sub">awaiting reaction: {names.get(awaited) ?? awaited}</div>}
        </div>
        {w.players.map((p, i) => (
          <TableSeat key={p.player_id} seat={scene.seats[i]!} player={p} awaited={awaited === p.player_id} place={place.get(p.player_id)} bubbles={scene.bubbles.filter((b) => b.at === p.player_id)} names={names} chance={chances?.[p.player_id]} />
        ))}
        <TableOverlay seats={scene.seats} arrows={scene.arrows} links={links} names={names} />
      </div>
      <p class="legend table-legend">
        <span>
          <b>res</b> resolve: at 0 a seat loses a life
        </span>
        <span>
          <b>tmp</b> tempo: pays for cards
        </span>
        <span>
          <b>exp</b> exposure: how readable a seat is (its tell from 4, its emotions from 8)
        </span>
        {chances && (
          <span>
            <b>%</b> beside a name: its chance to win, the model's estimate
          </span>
        )}
        <span data-testid="emotion-legend">
          meters: −1 … +1 (hatched below 0):{' '}
          {METER_EMOTIONS.map((e) => (
            <span key={e} class="emotion-key" style={{ '--emo': EMOTION_COLOURS[e].hex }} title={EMOTION_COLOURS[e].name}>
              <i class="swatch" aria-hidden="true" />
              {e}{' '}
            </span>
          ))}
        </span>
        {lines !== 'none' && <span>{lines === 'trust' ? 'lines: trust from → to, orange positive, purple negative' : 'lines: grievance from → to, thicker is stronger'}</span>}
      </p>
    </section>
  );
}
