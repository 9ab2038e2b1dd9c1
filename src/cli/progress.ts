import { performance } from 'node:perf_hooks';
import type { CliIo } from './io.js';

const WIDTH = 30;
/** Short runs finish before a bar would help; redraws are throttled so the terminal keeps up. */
const SHOW_AFTER_MS = 300;
const REDRAW_MS = 100;

export type Progress = { update(done: number, total: number): void; end(): void };

/**
 * A one-line progress bar on stderr, drawn only when stderr is a terminal (never into a pipe or
 * a log file), and only once a run has lasted long enough to need one.
 */
export function progressBar(io: CliIo, label: string, now = () => performance.now()): Progress | null {
  if (!io.errIsTTY) return null;
  const start = now();
  let last = -Infinity;
  let drawn = false;
  return {
    update(done, total) {
      const t = now();
      if (t - start < SHOW_AFTER_MS || (t - last < REDRAW_MS && done < total)) return;
      last = t;
      drawn = true;
      const filled = Math.round((done / total) * WIDTH);
      const pct = String(Math.floor((done / total) * 100)).padStart(3);
      io.err(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${pct}% ${done}/${total}  ${((t - start) / 1000).toFixed(1)} s\x1b[K`);
    },
    end() {
      if (drawn) io.err('\r\x1b[K');
    },
  };
}
