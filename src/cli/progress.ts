import { performance } from 'node:perf_hooks';
import type { CliIo } from './io.js';
import { formatRate } from './rate.js';

const WIDTH = 30;
/**
 * Short runs finish before a bar would help; redraws are throttled so the terminal keeps up.
 * TILTYARD_PROGRESS_AFTER_MS overrides the wait (the pseudo-terminal tests set 0 so that a fast
 * run still draws).
 */
const SHOW_AFTER_MS = 300;
const REDRAW_MS = 100;

function showAfterMs(): number {
  const v = Number(process.env['TILTYARD_PROGRESS_AFTER_MS']);
  return Number.isFinite(v) && v >= 0 ? v : SHOW_AFTER_MS;
}

export type Progress = { update(done: number, total: number): void; end(): void };

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (never into a pipe or
 * a log file), and only once a run has lasted long enough to need one. With a `unit` it shows the
 * throughput so far (formatRate: honest at any speed).
 */
export function progressBar(io: CliIo, label: string, unit?: string, now = () => performance.now()): Progress | null {
  if (!io.errIsTTY) return null;
  const start = now();
  const after = showAfterMs();
  let last = -Infinity;
  let drawn = false;
  return {
    update(done, total) {
      const t = now();
      if (t - start < after || (t - last < REDRAW_MS && done < total)) return;
      last = t;
      drawn = true;
      const filled = total > 0 ? Math.round((done / total) * WIDTH) : 0;
      const pct = String(total > 0 ? Math.floor((done / total) * 100) : 0).padStart(3);
      const rate = unit && done > 0 ? ` · ${formatRate(done, t - start, unit)}` : '';
      io.err(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${pct}% ${done}/${total}  ${seconds(t - start)}${rate}\x1b[K`);
    },
    end() {
      if (drawn) io.err('\r\x1b[K');
    },
  };
}

export type LiveLine = { set(text: string): void; end(): void };

/**
 * One status line on stderr for work whose length is unknown (opening a database, a game being
 * played): redrawn in place with the time elapsed, on a terminal only, and only once the work has
 * lasted long enough to need it. A timer keeps the clock moving while nothing else happens.
 */
export function liveLine(io: CliIo, initial: string, now = () => performance.now()): LiveLine | null {
  if (!io.errIsTTY) return null;
  const start = now();
  const after = showAfterMs();
  let text = initial;
  let drawn = false;
  let ended = false;
  let last = -Infinity;
  const draw = (force: boolean) => {
    const t = now();
    if (ended || t - start < after || (!force && t - last < REDRAW_MS)) return;
    last = t;
    drawn = true;
    io.err(`\r${text} · ${seconds(t - start)}\x1b[K`);
  };
  const timer = setInterval(() => draw(true), 250);
  timer.unref();
  if (after === 0) draw(true);
  return {
    set(next) {
      text = next;
      draw(false);
    },
    end() {
      clearInterval(timer);
      ended = true;
      if (drawn) io.err('\r\x1b[K');
    },
  };
}
