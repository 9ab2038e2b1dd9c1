import { pct, ranked } from '../../../src/eval/chance-words.js';
import type { Chances } from '../../../src/eval/model.js';
import type { WinTrack } from '../../../src/eval/win-track.js';
import { seatColor } from '../panels/seat-color.js';
import { WinGraph } from './win-graph.js';

type Props = {
  track: WinTrack;
  /** Bumped as the track grows (the track itself is mutable). */
  version: number;
  /** The chances at the position, or null where the model has nothing to say (before the deal). */
  now: Chances | null;
  seats: string[];
  names: Map<string, string>;
  range: [number, number];
  cursor: number;
  seek: (seq: number) => void;
};

const FORM_TEXT = { public: 'from the public table alone', omniscient: 'from every seat’s hands and feelings too' } as const;

/**
 * Each seat's chance to win over the game: the graph, and the same at the position in words (the
 * graph's text alternative, which a screen reader reads instead of the canvas).
 */
export function WinPanel({ track, version, now, seats, names, range, cursor, seek }: Props) {
  const name = (id: string) => names.get(id) ?? 'a seat';
  return (
    <section class="panel win-panel" aria-labelledby="win-h" data-testid="win-panel" data-form={track.form}>
      <h2 id="win-h">Chances to win</h2>
      <p class="muted win-model">estimated {FORM_TEXT[track.form]}</p>
      <WinGraph points={track.points} version={version} seats={seats} range={range} cursor={cursor} seek={seek} />
      {/* The graph's text alternative and its legend: each seat's colour, name and chance at the position. */}
      <p class="win-now" data-testid="win-now">
        {now ? (
          <>
            At this point:{' '}
            {ranked(now).map(([id, p], i) => (
              <span key={id} class="win-seat" data-seat-id={id}>
                {i > 0 && ', '}
                <i class="seat-dot" style={{ '--seat-color': seatColor(id) }} aria-hidden="true" />
                {name(id)} {pct(p)}
              </span>
            ))}
          </>
        ) : (
          'No chances yet: the game has not been dealt.'
        )}
      </p>
    </section>
  );
}
