import type { View, WireEventLike } from './types.js';
import { seatColor } from './seat-color.js';

type Props = {
  view: View;
  /** The last event shown (for who is awaited now). */
  last: WireEventLike | undefined;
  placements: { player_id: string; placement: number }[] | null;
};

const STATS = [
  ['lives', 'lives', 'lives left'],
  ['resolve', 'res', 'resolve'],
  ['tempo', 'tmp', 'tempo'],
  ['exposure', 'exp', 'exposure'],
  ['hand', 'hand', 'cards in hand'],
] as const;

const pct = (i: number, n: number) => {
  // Seats around an ellipse, the first at the top, clockwise.
  const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(1, n);
  return { left: `${50 + 40 * Math.cos(a)}%`, top: `${50 + 40 * Math.sin(a)}%` };
};

/** The table: seats in a ring with their public numbers and arena cards, the phase in the middle. */
export function TablePanel({ view, last, placements }: Props) {
  const w = view.world;
  const awaited = last?.type === 'reaction_requested' ? String((last.payload as { player_id?: string }).player_id ?? '') : null;
  const place = new Map((placements ?? []).map((p) => [p.player_id, p.placement]));
  const round = w.turn;
  return (
    <section class="panel table-wrap" aria-labelledby="table-h" data-testid="table">
      <h2 id="table-h">Table</h2>
      <div class="ring">
        <div class="felt" aria-live="off">
          <div class="phase" data-testid="phase">
            {w.status === 'done' ? 'Game over' : w.phase}
          </div>
          <div class="sub">
            round <span data-testid="round">{round}</span> · deck {w.arena.deck_count} · discard {w.discard.length}
          </div>
          {w.stack.length > 0 && <div class="sub">stack: {w.stack.length} waiting</div>}
          {awaited && <div class="sub">awaiting reaction: {w.players.find((p) => p.player_id === awaited)?.display_name ?? awaited}</div>}
        </div>
        {w.players.map((p, i) => {
          const hidden = p.arena_cards.filter((c) => c.card_id === 'card_hidden').length;
          return (
            <article
              key={p.player_id}
              class={`seat${p.alive ? '' : ' out'}${awaited === p.player_id ? ' awaited' : ''}`}
              style={{ ...pct(i, w.players.length), '--seat-color': seatColor(p.player_id) }}
              aria-label={`${p.display_name}, ${p.alive ? `${p.lives} lives` : 'eliminated'}`}
              data-player={p.player_id}
            >
              <div class="name">
                <span>
                  <i class="seat-dot" aria-hidden="true" />
                  {p.display_name}
                </span>
                <span class="muted">{p.player_id}</span>
              </div>
              <dl class="stats">
                {STATS.map(([key, label, title]) => (
                  <div key={key} title={title}>
                    <dt>{label}</dt>
                    <dd data-stat={key}>{key === 'hand' ? p.hand_count : p[key]}</dd>
                  </div>
                ))}
              </dl>
              <div class="cards-row" aria-label="arena cards">
                {p.arena_cards.map((c, k) =>
                  c.card_id === 'card_hidden' ? <span key={k} class="pcard back" title="face-down card" aria-label="face-down card" /> : (
                    <span key={c.card_id} class="pcard" title={`${c.name} (${c.type})`} data-card={c.card_id}>
                      {c.name}
                    </span>
                  ),
                )}
                {hidden === 0 && p.arena_cards.length === 0 && <span class="muted">no cards in play</span>}
              </div>
              <div class="muted">
                {p.tell.masked ? 'tell masked' : p.tell.dominant ? `tell: ${p.tell.dominant}` : 'tell: calm'}
                {p.locked_out ? ' · locked out' : ''}
                {p.forced_line_toward ? ` · forced toward ${p.forced_line_toward}` : ''}
              </div>
              {!p.alive && <div class="placement">eliminated{place.has(p.player_id) ? ` · place ${place.get(p.player_id)}` : ''}</div>}
              {p.alive && place.has(p.player_id) && <div class={`placement${place.get(p.player_id) === 1 ? ' winner' : ''}`}>{place.get(p.player_id) === 1 ? 'winner · place 1' : `place ${place.get(p.player_id)}`}</div>}
            </article>
          );
        })}
      </div>
    </section>
  );
}
