import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { EmotionSeries } from '../../../src/view/index.js';
import { seatHex } from './seat-color.js';

export const EMOTIONS = ['tilt', 'fear', 'anger', 'confidence', 'shame', 'greed', 'valence', 'arousal', 'dominance'] as const;
export type Emotion = (typeof EMOTIONS)[number];

type Props = { series: EmotionSeries; seats: string[]; names: Map<string, string>; cursor: number };

/** Columns for uPlot: x = every seq where something changed, each seat's value held until its next point. */
export function columns(series: EmotionSeries, seats: string[], emotion: Emotion): { data: uPlot.AlignedData; any: boolean } {
  const xs = [...new Set(seats.flatMap((s) => (series[s] ?? []).map((p) => p.seq)))].sort((a, b) => a - b);
  let any = false;
  const ys = seats.map((s) => {
    const pts = series[s] ?? [];
    let i = 0;
    let cur: number | null = null;
    return xs.map((x) => {
      while (i < pts.length && pts[i]!.seq <= x) {
        const p = pts[i]!;
        const v = p.vector?.[emotion] ?? p.tell?.vector?.[emotion];
        cur = typeof v === 'number' ? v : cur;
        i++;
      }
      if (cur !== null) any = true;
      return cur;
    });
  });
  return { data: [xs, ...ys] as uPlot.AlignedData, any };
}

/**
 * The emotion dashboard: one emotion per seat over the game (a canvas chart: cheap with thousands
 * of points), and every seat's current tell. Full vectors only where the view has them.
 */
export function EmotionPanel({ series, seats, names, cursor }: Props) {
  const [emotion, setEmotion] = useState<Emotion>('tilt');
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const { data, any } = columns(series, seats, emotion);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(260, el.clientWidth);
    const u = new uPlot(
      {
        width,
        height: 200,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false }, y: { range: [0, 1] } },
        axes: [
          { stroke: '#9aa3af', grid: { stroke: '#2c333d' }, ticks: { stroke: '#2c333d' }, label: 'event' },
          { stroke: '#9aa3af', grid: { stroke: '#2c333d' }, ticks: { stroke: '#2c333d' } },
        ],
        series: [{ label: 'seq' }, ...seats.map((s, i) => ({ label: names.get(s) ?? s, stroke: seatHex(s), width: 2, dash: i % 2 ? [6, 3] : undefined, spanGaps: true }))],
      },
      data,
      el,
    );
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(260, el.clientWidth), height: 200 }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
    // The chart is rebuilt when the seats change; data updates go through setData below.
  }, [seats.join(',')]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  const latest = (s: string) => {
    const pts = series[s] ?? [];
    return pts.at(-1)?.tell ?? null;
  };

  return (
    <div data-testid="emotions">
      <label>
        emotion{' '}
        <select value={emotion} onChange={(e) => setEmotion((e.target as HTMLSelectElement).value as Emotion)}>
          {EMOTIONS.map((x) => (
            <option key={x} value={x}>
              {x}
            </option>
          ))}
        </select>
      </label>
      <span class="muted"> up to event {cursor}</span>
      {!any && <p class="muted">This view sees no {emotion} values: only public tells below (full vectors are for a seat's own view, admins, and researchers after the game).</p>}
      <div ref={box} class="chart" role="img" aria-label={`${emotion} per seat over the game`} />
      <ul class="tells">
        {seats.map((s) => {
          const t = latest(s);
          return (
            <li key={s}>
              <i class="seat-dot" style={{ '--seat-color': seatHex(s) }} aria-hidden="true" />
              {names.get(s) ?? s}: {t ? (t.masked ? 'masked' : (t.dominant ?? 'calm')) : '—'}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
