import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

/**
 * With TILTYARD_CPU_LOG=<file>, each test file appends one JSON line: the CPU seconds its worker
 * process spent on it, its own threads and the children it reaped (the CLI, servers, agents,
 * Chromium) — which files cost the suite's CPU, as wall times on a shared machine cannot say.
 * Off (no hooks) when the variable is unset.
 */
const LOG = process.env['TILTYARD_CPU_LOG'];
const TICK = 100; // USER_HZ on Linux

/** utime + stime, and cutime + cstime, of this process, in seconds. */
function cpu(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(f[i - 3]);
  return { self: (n(14) + n(15)) / TICK, children: (n(16) + n(17)) / TICK };
}

if (LOG) {
  // From here (before the test file's imports: they cost CPU too) to the file's last hook.
  const start = cpu();
  afterAll(() => {
    const end = cpu();
    const file = expect.getState().testPath ?? '?';
    appendFileSync(LOG, `${JSON.stringify({ file: file.replace(process.cwd() + '/', ''), self: +(end.self - start.self).toFixed(2), children: +(end.children - start.children).toFixed(2) })}\n`);
  });
}
