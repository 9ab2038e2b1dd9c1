/**
 * CPU seconds spent by each role of a bench phase (workers, coordinator, PostgreSQL backends,
 * Redis), read from /proc (Linux). On a loaded machine wall-clock ratios are noise, but CPU per
 * game is not: two workers on two cores can only double throughput when everything besides the
 * workers' own play is small, and this says how small it is.
 *
 * Processes are sampled every `everyMs`: a process that exits between samples loses at most its
 * last interval (the coordinator's exit). Processes first seen after the meter started count from
 * zero (they started during the phase); the ones already running count from the first sample.
 * Shared processes (redis-server, PostgreSQL's own background writers) also serve whatever else
 * runs on the machine: their figure is an upper bound.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of /proc/<pid>/stat times, 100 on every Linux build in practice. */
const TICKS_PER_S = 100;

export type CpuRole = { role: string; pids?: readonly number[]; cmdline?: RegExp };
export type CpuMeter = { stop(): Record<string, number> };

function ticks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is [0], utime [11], stime [12].
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return null;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

export function meterCpu(roles: readonly CpuRole[], everyMs = 200): CpuMeter {
  const roleOf = new Map<number, string | null>();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let initial = true;
  const classify = (pid: number): string | null => {
    const known = roleOf.get(pid);
    if (known !== undefined) return known;
    const line = roles.some((r) => r.cmdline) ? cmdline(pid) : '';
    const role = roles.find((r) => r.pids?.includes(pid) || (r.cmdline && r.cmdline.test(line)))?.role ?? null;
    roleOf.set(pid, role);
    return role;
  };
  const sample = () => {
    for (const name of readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || classify(pid) === null) continue;
      const t = ticks(pid);
      if (t === null) continue;
      if (!first.has(pid)) first.set(pid, initial ? t : 0);
      last.set(pid, t);
    }
    initial = false;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const out: Record<string, number> = Object.fromEntries(roles.map((r) => [r.role, 0]));
      for (const [pid, t] of last) out[roleOf.get(pid)!]! += (t - first.get(pid)!) / TICKS_PER_S;
      return out;
    },
  };
}
