import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { seatHex } from './seat-color.js';

type Props = {
  /** x = seq, then one column per seat (null where the seat has no value). */
  data: uPlot.AlignedData;
  seats: string[];
  names: Map<string, string>;
  /** The x axis spans the whole log; the data stops at the position (a replay does not show its future). */
  range: [number, number];
  y: [number, number] | null;
  cursor: number;
  seek: (seq: number) => void;
  label: string;
  testId: string;
};

const AXIS = { stroke: '#9aa3af', grid: { stroke: '#2c333d' }, ticks: { stroke: '#2c333d' } };

/**
 * One value per seat over the game on a canvas (uPlot), with the position drawn as a vertical line;
 * a click on the plot seeks to the event under the pointer.
 */
export function SeekChart({ data, seats, names, range, y, cursor, seek, label, testId }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  // Read by the draw hook and the click handler, which outlive a render.
  const live = useRef({ cursor, range, seek });
  live.current = { cursor, range, seek };

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const u = new uPlot(
      {
        width: Math.max(260, el.clientWidth),
        height: 160,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: () => live.current.range }, y: y ? { range: y } : { auto: true } },
        axes: [{ ...AXIS, label: 'event' }, AXIS],
        series: [{ label: 'seq' }, ...seats.map((s, i) => ({ label: names.get(s) ?? s, stroke: seatHex(s), width: 2, dash: i % 2 ? [6, 3] : undefined, spanGaps: true, paths: uPlot.paths.stepped!({ align: 1 }) }))],
        hooks: {
          draw: [
            (u: uPlot) => {
              const x = u.valToPos(live.current.cursor, 'x', true);
              const ctx = u.ctx;
              ctx.save();
              ctx.strokeStyle = '#56b4e9';
              ctx.lineWidth = 2 * devicePixelRatio;
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
              ctx.restore();
            },
          ],
        },
      },
      data,
      el,
    );
    plot.current = u;
    const onClick = () => {
      const left = u.cursor.left;
      if (left === undefined || left < 0) return;
      const [lo, hi] = live.current.range;
      live.current.seek(Math.min(hi, Math.max(lo, Math.round(u.posToVal(left, 'x')))));
    };
    u.over.addEventListener('click', onClick);
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(260, el.clientWidth), height: 160 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.over.removeEventListener('click', onClick);
      u.destroy();
      plot.current = null;
    };
  }, [seats.join(','), y?.join(',')]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);
  useEffect(() => {
    plot.current?.redraw(false, false);
  }, [cursor]);

  return <div ref={box} class="chart seek-chart" role="img" aria-label={`${label} per seat over the game; click to go to an event`} data-testid={testId} data-cursor={cursor} />;
}
