import { useMemo, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import { emotionSeries, statSeries, type GameEvent } from '../../../src/view/index.js';
import { EMOTIONS, columns, type Emotion } from './emotion-panel.js';
import { SeekChart } from './seek-chart.js';

type Props = {
  /** The view's events up to the position. */
  events: GameEvent[];
  /** The table at the timeline's first seq (a seat's view starts after the deal). */
  start: readonly { player_id: string; lives: number; resolve: number }[];
  first: number;
  head: number;
  seats: string[];
  names: Map<string, string>;
  cursor: number;
  seek: (seq: number) => void;
};

/**
 * Lives, resolve and one emotion per seat over the game, each with the position marked; a click
 * on a chart goes to that event. Drawn up to the position only (a replay never shows its future).
 */
export function ChartsPanel({ events, start, first, head, seats, names, cursor, seek }: Props) {
  const [emotion, setEmotion] = useState<Emotion>('tilt');
  const stats = useMemo(() => statSeries(events, first > 0 ? start : undefined, first), [events]);
  const col = (m: Record<string, number[]>): uPlot.AlignedData => [stats.seqs, ...seats.map((s) => m[s] ?? stats.seqs.map(() => null))] as uPlot.AlignedData;
  const lives = useMemo(() => col(stats.lives), [stats]);
  const resolve = useMemo(() => col(stats.resolve), [stats]);
  const feelings = useMemo(() => columns(emotionSeries(events), seats, emotion), [events, emotion]);
  const maxLives = Math.max(1, ...Object.values(stats.lives).flat());
  const range: [number, number] = [first, Math.max(first + 1, head)];
  const common = { seats, names, range, cursor, seek };
  return (
    <div data-testid="charts">
      <h3 class="chart-title">Lives</h3>
      <SeekChart {...common} data={lives} y={[0, maxLives]} label="lives" testId="chart-lives" />
      <h3 class="chart-title">Resolve</h3>
      <SeekChart {...common} data={resolve} y={null} label="resolve" testId="chart-resolve" />
      <h3 class="chart-title">
        <label>
          emotion{' '}
          <select value={emotion} onChange={(e) => setEmotion((e.target as HTMLSelectElement).value as Emotion)} data-testid="chart-emotion-select">
            {EMOTIONS.map((x) => (
              <option key={x} value={x}>
                {x}
              </option>
            ))}
          </select>
        </label>
      </h3>
      {!feelings.any && <p class="muted">This view sees no {emotion} values (full vectors are for a seat's own view, admins, and researchers after the game; others see tells).</p>}
      <SeekChart {...common} data={feelings.data} y={[-1, 1]} label={emotion} testId="chart-emotion" />
    </div>
  );
}
