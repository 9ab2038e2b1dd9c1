import { performance } from 'node:perf_hooks';

/**
 * Named instants of the server's start, in ms since this process began (performance.now() counts
 * from the process's time origin, so node's own start-up and the imports show up too), each with
 * the CPU time the process had used by then (every thread: V8 compiles WASM and collects garbage
 * on helper threads). The start bench and test read them to say where a start spends its time:
 * they print `{"boot_ms": {...}, "boot_cpu_ms": {...}}` on stderr when TILTYARD_BOOT_TIMES is set.
 * CPU time is what to compare on a busy machine: waiting for a core does not add to it.
 */
const marks: Array<[phase: string, wallMs: number, cpuMs: number]> = [];

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return Math.round((user + system) / 1000);
};

/** Records that `phase` ended now (the first record of a name wins). */
export function bootMark(phase: string): void {
  if (!marks.some(([n]) => n === phase)) marks.push([phase, Math.round(performance.now()), cpuMs()]);
}

/** Every mark so far, in order, as `{phase: ms since the process started}`. */
export function bootMarks(): Record<string, number> {
  return Object.fromEntries(marks.map(([n, wall]) => [n, wall]));
}

/** Every mark so far, in order, as `{phase: CPU ms the process had used by then}`. */
export function bootCpuMarks(): Record<string, number> {
  return Object.fromEntries(marks.map(([n, , cpu]) => [n, cpu]));
}
