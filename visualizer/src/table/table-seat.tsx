import { useState } from 'preact/hooks';
import { plainSpeech, type Bubble, type SeatScene } from '../../../src/view/index.js';
import type { View } from '../panels/types.js';
import { seatColor } from '../panels/seat-color.js';
import { CardRow, HandBacks } from './card-view.js';
import { Meters } from './meters.js';
import { pct } from '../../../src/eval/chance-words.js';

type Player = View['world']['players'][number];

type Props = {
  seat: SeatScene;
  player: Player;
  awaited: boolean;
  place: number | undefined;
  bubbles: Bubble[];
  names: Map<string, string>;
  /** The lobby's small table: name, lives and the lead only (no numbers, cards, meters or talk). */
  compact?: { leads: boolean; chance?: number | null } | undefined;
  /** The seat's chance to win at the position (the model's), where the page has one. */
  chance?: number | undefined;
};

/** The public numbers; abbreviations are spelled out in the legend under the table. */
const STATS = [
  ['lives', 'lives', 'lives left'],
  ['resolve', 'res', 'resolve'],
  ['tempo', 'tmp', 'tempo'],
  ['exposure', 'exp', 'exposure'],
  ['hand', 'hand', 'cards in hand'],
] as const;

/** One seat: its numbers, hand, arena cards, meters or tell, placement, and this round's speech at it. */
export function TableSeat({ seat, player: p, awaited, place, bubbles, names, compact, chance }: Props) {
  const style = { left: `${seat.at.x}%`, top: `${seat.at.y}%`, '--seat-color': seatColor(p.player_id) };
  if (compact)
    return (
      <article class={`seat mini${p.alive ? '' : ' out'}${compact.leads ? ' leads' : ''}`} style={style} data-player={p.player_id} data-testid="mini-seat">
        <div class="name">
          <span>
            <i class="seat-dot" aria-hidden="true" />
            <span data-testid="mini-name">{p.display_name}</span>
          </span>
        </div>
        <div class="muted">
          {p.alive ? (
            <>
              <span data-testid="mini-lives" data-lives={p.lives}>
                {p.lives} {p.lives === 1 ? 'life' : 'lives'}
              </span>
              {compact.leads && <b class="lead"> · leads{typeof compact.chance === 'number' ? ` · ${pct(compact.chance)}` : ''}</b>}
            </>
          ) : (
            'out'
          )}
        </div>
      </article>
    );
  return (
    <article
      class={`seat${p.alive ? '' : ' out'}${awaited ? ' awaited' : ''}`}
      style={style}
      aria-label={`${p.display_name}, ${p.alive ? `${p.lives} lives` : 'eliminated'}${chance !== undefined ? `, ${pct(chance)} to win` : ''}`}
      data-player={p.player_id}
    >
      <div class="name">
        <span>
          <i class="seat-dot" aria-hidden="true" />
          {p.display_name}
        </span>
        {/* Beside the name: a seat box grows no taller for it (the phone's first screen). */}
        {chance !== undefined && (
          <b class="seat-chance" data-testid="seat-chance" data-chance={chance} title="chance to win, the model's estimate">
            {pct(chance)}
          </b>
        )}
        <span class="muted">{p.player_id}</span>
      </div>
      <dl class="stats">
        {STATS.map(([key, label, title]) => (
          <div key={key}>
            <dt>
              <abbr title={title}>{label}</abbr>
            </dt>
            <dd data-stat={key}>{key === 'hand' ? p.hand_count : p[key]}</dd>
          </div>
        ))}
      </dl>
      {seat.hand_held ? <CardRow cards={seat.hand} label="hand" /> : <HandBacks count={seat.hand.length} />}
      <CardRow cards={seat.arena} label="arena" />
      {seat.meters && <Meters meters={seat.meters} from={seat.meters_from} />}
      <div class="muted" data-testid="tell">
        {seat.tell}
        {p.locked_out ? ' · locked out' : ''}
        {p.forced_line_toward ? ` · forced toward ${names.get(p.forced_line_toward) ?? p.forced_line_toward}` : ''}
      </div>
      {!p.alive && <div class="placement">eliminated{place !== undefined ? ` · place ${place}` : ''}</div>}
      {p.alive && place !== undefined && <div class={`placement${place === 1 ? ' winner' : ''}`}>{place === 1 ? 'winner · place 1' : `place ${place}`}</div>}
      {bubbles.length > 0 && (
        <div class={`talk ${talkSide(seat.at)}`}>
          {bubbles.map((b) => (
            <SpeechBubble key={b.seq} bubble={b} names={names} />
          ))}
        </div>
      )}
    </article>
  );
}

/**
 * Where a seat's talk goes so it covers neither the seat nor the middle of the table: beside the
 * seats at the top and bottom, above the seats at the sides.
 */
function talkSide(at: { x: number; y: number }): string {
  if (Math.abs(at.y - 50) >= Math.abs(at.x - 50)) return at.x <= 50 ? 'beside-r' : 'beside-l';
  return 'above';
}

/** A public line at its speaker, or a private note at its listener: sealed unless the view may read it. Text only, never markup. */
function SpeechBubble({ bubble: b, names }: { bubble: Bubble; names: Map<string, string> }) {
  const [open, setOpen] = useState(false);
  const from = names.get(b.speaker) ?? b.speaker;
  // A long line is cut at a few lines with an ellipsis; a click, a tap, Enter or Space opens it whole.
  const toggle = {
    role: 'button' as const,
    tabIndex: 0,
    'aria-expanded': open,
    title: open ? 'Show less' : 'Show the whole line',
    onClick: () => setOpen((o) => !o),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      setOpen((o) => !o);
    },
  };
  if (!b.private) {
    return (
      <p class={`bubble${open ? ' open' : ''}`} data-testid="bubble" data-seq={b.seq} {...toggle}>
        {plainSpeech(b.text ?? '', names)}
      </p>
    );
  }
  if (b.text === null)
    return (
      <p class="bubble note sealed" data-testid="note" data-seq={b.seq}>
        <span class="from">
          <span aria-hidden="true">✉ </span>
          {`sealed note from ${from}`}
        </span>
      </p>
    );
  return (
    <p class={`bubble note${open ? ' open' : ''}`} data-testid="note" data-seq={b.seq} {...toggle}>
      <span class="from">
        <span aria-hidden="true">✉ </span>
        {`note from ${from}: `}
      </span>
      {b.text !== null && plainSpeech(b.text, names)}
    </p>
  );
}
