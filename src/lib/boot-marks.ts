import { performance } from 'node:perf_hooks';

/**
 * Named instants of the server's start, in ms since this process began (performance.now() counts
 * from the process's time origin, so node's own start-up and the imports show up too). The start
 * bench and test read them to say where a start spends its time: they print
 * `{"boot_ms": {...}}` on stderr when TILTYARD_BOOT_TIMES is set.
 */
const marks: Array<[string, number]> = [];

/** Records that `phase` ended now (the first record of a name wins). */
export function bootMark(phase: string): void {
  if (!marks.some(([n]) => n === phase)) marks.push([phase, Math.round(performance.now())]);
}

/** Every mark so far, in order, as `{phase: ms since the process started}`. */
export function bootMarks(): Record<string, number> {
  return Object.fromEntries(marks);
}
