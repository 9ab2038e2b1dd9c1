import { readFileSync } from 'node:fs';

/**
 * The host pid of bwrap's init inside a sandbox started as `bwrapPid` (its only child), which
 * leads the session and process group the agent runs in; null when it is not (yet, or any more)
 * there. Read from /proc, only when an agent must be stopped.
 */
export function sandboxInitPid(bwrapPid: number): number | null {
  try {
    const first = readFileSync(`/proc/${bwrapPid}/task/${bwrapPid}/children`, 'utf8').trim().split(/\s+/)[0];
    const pid = Number(first);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
