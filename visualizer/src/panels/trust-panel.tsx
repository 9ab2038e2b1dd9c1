import { interpolateCividis, interpolatePuOr } from 'd3-scale-chromatic';
import { useState } from 'preact/hooks';
import { jumpLabel, type TrustMatrix } from '../../../src/view/index.js';
import type { WireEvent } from '../game/history.js';

type Props = { matrix: TrustMatrix; names: Map<string, string>; event: (seq: number) => WireEvent | undefined; seek: (seq: number) => void };

const CELL = 56;
const PAD = 96;

/** Perceptually ordered, colour-blind safe: cividis for grievance (0…1), purple–orange for trust (−1…1). */
const colour = (metric: 'trust' | 'grievance', v: number | null): string => (v === null ? '#2a2f38' : metric === 'trust' ? interpolatePuOr((1 - v) / 2) : interpolateCividis(v));
const ink = (metric: 'trust' | 'grievance', v: number | null): string => (v === null ? '#9aa3af' : metric === 'grievance' ? (v > 0.55 ? '#111' : '#eee') : Math.abs(v) > 0.5 ? '#fff' : '#111');

/**
 * The trust and grievance heatmap, seat × seat (row: who feels, column: toward whom). A click (or
 * Enter) on a cell lists the events that moved it, each a link to its point in the game.
 */
export function TrustPanel({ matrix, names, event, seek }: Props) {
  const [metric, setMetric] = useState<'trust' | 'grievance'>('grievance');
  const [sel, setSel] = useState<{ from: string; to: string } | null>(null);
  const n = matrix.seats.length;
  const size = PAD + n * CELL;
  const cell = sel ? matrix.cells.find((c) => c.from === sel.from && c.to === sel.to) : undefined;
  const name = (id: string) => names.get(id) ?? id;
  return (
    <div class="heat" data-testid="trust">
      <div class="tabs" role="group" aria-label="Metric">
        {(['grievance', 'trust'] as const).map((m) => (
          <button key={m} type="button" aria-pressed={metric === m} onClick={() => setMetric(m)}>
            {m}
          </button>
        ))}
      </div>
      {/* A group of buttons, not a grid: the SVG has no rows for a grid's cells to sit in. */}
      <svg viewBox={`0 0 ${size} ${size}`} role="group" aria-label={`${metric}: rows feel it toward columns`}>
        {matrix.seats.map((s, i) => (
          <g key={s}>
            <text x={PAD - 6} y={PAD + i * CELL + CELL / 2 + 4} text-anchor="end" fill="#e6e9ee" font-size="12">
              {name(s).slice(0, 12)}
            </text>
            <text x={PAD + i * CELL + CELL / 2} y={PAD - 8} fill="#e6e9ee" font-size="11" text-anchor="start" transform={`rotate(-45 ${PAD + i * CELL + CELL / 2} ${PAD - 8})`}>
              {name(s).slice(0, 12)}
            </text>
          </g>
        ))}
        {matrix.cells.map((c) => {
          const i = matrix.seats.indexOf(c.from);
          const j = matrix.seats.indexOf(c.to);
          const v = c[metric];
          const chosen = sel?.from === c.from && sel.to === c.to;
          const open = () => setSel({ from: c.from, to: c.to });
          return (
            <g key={`${c.from}>${c.to}`}>
              <rect
                class="cell"
                data-testid="trust-cell"
                data-from={c.from}
                data-to={c.to}
                data-moves={c.moved_by.length}
                x={PAD + j * CELL + 1}
                y={PAD + i * CELL + 1}
                width={CELL - 2}
                height={CELL - 2}
                rx="4"
                fill={colour(metric, v)}
                stroke={chosen ? '#e69f00' : 'none'}
                stroke-width={chosen ? 3 : 0}
                tabIndex={0}
                role="button"
                aria-label={`${name(c.from)} toward ${name(c.to)}: ${metric} ${v === null ? 'hidden' : v.toFixed(2)}, moved by ${c.moved_by.length} events`}
                onClick={open}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    open();
                  }
                }}
              />
              <text x={PAD + j * CELL + CELL / 2} y={PAD + i * CELL + CELL / 2 + 4} text-anchor="middle" font-size="12" fill={ink(metric, v)} pointer-events="none">
                {v === null ? '?' : v.toFixed(2)}
              </text>
            </g>
          );
        })}
      </svg>
      <p class="muted">Rows feel it toward columns. “?”: hidden from this view. Click a cell for the events that moved it.</p>
      {sel && (
        <div data-testid="cell-events">
          <h3>
            {name(sel.from)} → {name(sel.to)}: {cell?.moved_by.length ?? 0} events moved it
          </h3>
          {cell && cell.moved_by.length > 0 ? (
            <ol class="feed">
              {cell.moved_by.map((seq) => (
                <li key={seq} data-seq={seq}>
                  <button type="button" class="ghost linkish" onClick={() => seek(seq)} data-testid="jump">
                    {jumpLabel(event(seq), name)}
                  </button>
                </li>
              ))}
            </ol>
          ) : (
            <p class="muted">Nothing this view can see has moved it yet.</p>
          )}
        </div>
      )}
    </div>
  );
}
