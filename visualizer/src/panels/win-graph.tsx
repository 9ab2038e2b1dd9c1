import { useMemo } from 'preact/hooks';
import type uPlot from 'uplot';
import type { WinPoint } from '../../../src/eval/win-track.js';
import { SeekChart } from './seek-chart.js';

type Props = {
  points: readonly WinPoint[];
  /** Changes whenever the points do (the list is the track's own, mutated as it grows). */
  version: number;
  seats: string[];
  names: Map<string, string>;
  range: [number, number];
  cursor: number;
  seek: (seq: number) => void;
};

/** The curve as chart columns: x = seq, then each seat's chance in percent (null before the deal). */
export function winColumns(points: readonly WinPoint[], seats: readonly string[]): uPlot.AlignedData {
  const xs = points.map((p) => p.seq);
  const cols = seats.map((s) => points.map((p) => (p.p ? Math.round((p.p[s] ?? 0) * 1000) / 10 : null)));
  return [xs, ...cols] as uPlot.AlignedData;
}

/**
 * lichess's evaluation graph for a table: each seat's chance to win over the game, one line per
 * seat in its colour, the position marked; a click goes to that event. Render-only: the points
 * come from the page's own fold, and the part past the position is covered.
 */
export function WinGraph({ points, version, seats, names, range, cursor, seek }: Props) {
  const data = useMemo(() => winColumns(points, seats), [points, version, seats.join()]);
  return <SeekChart data={data} seats={seats} names={names} range={range} y={[0, 100]} cursor={cursor} seek={seek} label="Chance to win" testId="win-graph" hideFuture height={190} />;
}
