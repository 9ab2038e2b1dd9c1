import { useMemo } from 'preact/hooks';
import type { WinPoint } from '../../../src/eval/win-track.js';
import { seatColor } from '../panels/seat-color.js';

type Props = {
  points: readonly WinPoint[];
  /** Changes whenever the points do (the list is the track's own, mutated as it grows). */
  version: number;
  seats: string[];
  /** The x axis spans the whole log: [first seq, head]. */
  range: [number, number];
  cursor: number;
  seek: (seq: number) => void;
};

/** The plot's own units: x 0…1000 across the log, y 0…100 percent from the top (stretched to the box). */
const WIDTH = 1000;

/**
 * One seat's chance over the game as a stepped SVG path (a chance holds from its event until the
 * next), in plot units; only changes are drawn, so a long game's path stays short.
 */
export function stepPath(points: readonly WinPoint[], seat: string, x: (seq: number) => number, end: number): string {
  const d: string[] = [];
  let last: number | null = null;
  for (const pt of points) {
    if (!pt.p) continue;
    const y = Math.round((1 - (pt.p[seat] ?? 0)) * 1000) / 10;
    const at = Math.round(x(pt.seq) * 10) / 10;
    if (last === null) d.push(`M${at} ${y}`);
    else if (y !== last) d.push(`H${at}V${y}`);
    last = y;
  }
  if (last !== null) d.push(`H${Math.round(x(end) * 10) / 10}`);
  return d.join('');
}

/**
 * lichess's evaluation graph for a table: each seat's chance to win over the game, one line per
 * seat in its colour (every other one dashed, for colour-blind eyes), 0–100 %, the position a
 * vertical line and the part past it covered (a replay does not show its future); a click goes to
 * the event under the pointer. Plain SVG in the page's own script: no chart library to fetch
 * before it draws. Render-only: the points come from the page's own fold.
 */
export function WinGraph({ points, version, seats, range, cursor, seek }: Props) {
  const [lo, hi] = range;
  const x = (seq: number) => ((seq - lo) / Math.max(1, hi - lo)) * WIDTH;
  const paths = useMemo(() => seats.map((s) => stepPath(points, s, x, hi)), [points, version, seats.join(), lo, hi]);
  const cx = Math.max(0, Math.min(WIDTH, x(cursor)));
  const onClick = (e: MouseEvent) => {
    const box = (e.currentTarget as SVGSVGElement).getBoundingClientRect();
    const f = (e.clientX - box.left) / Math.max(1, box.width);
    seek(Math.max(lo, Math.min(hi, Math.round(lo + f * (hi - lo)))));
  };
  return (
    <div class="win-graph" role="img" aria-label="Chance to win per seat over the game; click to go to an event" data-testid="win-graph" data-cursor={cursor}>
      <div class="win-y" aria-hidden="true">
        <span>100 %</span>
        <span>50 %</span>
        <span>0 %</span>
      </div>
      <svg class="win-plot" data-testid="win-plot" viewBox={`0 0 ${WIDTH} 100`} preserveAspectRatio="none" onClick={onClick}>
        {[25, 50, 75].map((y) => (
          <line key={y} class="grid" x1="0" x2={WIDTH} y1={y} y2={y} vector-effect="non-scaling-stroke" />
        ))}
        {paths.map((d, i) => (
          <path key={seats[i]} d={d} class="seat-line" style={{ stroke: seatColor(seats[i]!) }} stroke-dasharray={i % 2 ? '6 3' : undefined} vector-effect="non-scaling-stroke" />
        ))}
        {cx < WIDTH && <rect class="future" x={cx} y="-1" width={WIDTH - cx + 1} height="102" />}
        <line class="cursor" x1={cx} x2={cx} y1="0" y2="100" vector-effect="non-scaling-stroke" />
      </svg>
      <div class="win-x" aria-hidden="true">
        <span>event {lo}</span>
        <span>{hi}</span>
      </div>
    </div>
  );
}
