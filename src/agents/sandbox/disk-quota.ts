import { lstat, opendir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Failure } from '../runtime/outcome.js';

/**
 * Files and folders one work dir may hold, whatever their size: millions of empty files fill a
 * file system's inode table as surely as bytes fill its blocks, and every check walks them all.
 */
export const MAX_WORK_DIR_ENTRIES = 10_000;

/** How often a running agent's work dir is measured. */
export const DISK_CHECK_MS = 200;

/** What a walk found: bytes allocated (blocks, so a sparse file counts what it takes) and entries. */
export type DiskUsage = { bytes: number; entries: number };

export type DiskQuota = { bytes: number; entries: number };

/**
 * The disk a folder takes, walked without following links; the walk stops as soon as it is past
 * either bound, so an agent cannot make the check itself expensive. A folder that vanishes
 * meanwhile counts as empty.
 *
 * @example await diskUsage('/tmp/tiltyard-agents/x-seat1-ab', { bytes: 64 << 20, entries: 10_000 }) // { bytes: 12288, entries: 3 }
 */
export async function diskUsage(dir: string, quota: DiskQuota): Promise<DiskUsage> {
  const usage: DiskUsage = { bytes: 0, entries: 0 };
  const over = () => usage.bytes > quota.bytes || usage.entries > quota.entries;
  const pending = [dir];
  while (pending.length > 0 && !over()) {
    const folder = pending.pop()!;
    let entries;
    try {
      entries = await opendir(folder);
    } catch {
      continue;
    }
    for await (const entry of entries) {
      const path = join(folder, entry.name);
      usage.entries++;
      try {
        usage.bytes += (await lstat(path)).blocks * 512;
      } catch {
        // removed meanwhile
      }
      if (entry.isDirectory()) pending.push(path);
      // Leaving the loop early closes the folder's handle.
      if (over()) break;
    }
  }
  return usage;
}

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

/** The failure of an invocation whose work dir went past its quota. */
export function quotaFailure(usage: DiskUsage, quota: DiskQuota): Failure {
  const what = usage.entries > quota.entries ? `more than ${quota.entries} files and folders` : `more than ${mib(quota.bytes)} (at least ${mib(usage.bytes)})`;
  return {
    code: 'sandbox/disk_quota',
    message: `its work dir holds ${what}, past the sandbox's disk quota (TILTYARD_SANDBOX_DISK_MB): the agent was stopped and its work dir emptied`,
  };
}

/** Removes everything inside `dir`, keeping `dir` itself (the seat goes on using it). */
export async function emptyDir(dir: string): Promise<void> {
  let entries;
  try {
    entries = await opendir(dir);
  } catch {
    return;
  }
  const names: string[] = [];
  for await (const entry of entries) names.push(entry.name);
  await Promise.all(names.map((name) => rm(join(dir, name), { recursive: true, force: true }).catch(() => undefined)));
}

/**
 * Keeps a work dir within its quota while an agent runs: measured every DISK_CHECK_MS (one walk
 * at a time), `onOver` is called once when it is past the quota; `finish` measures once more at
 * the end and empties the folder if it is over. Between two measurements an agent can write what
 * the disk takes in that time; a single file can never pass the quota (RLIMIT_FSIZE).
 *
 * @example
 * const watch = new DiskWatch(workDir, quota, (usage) => stopAgent(quotaFailure(usage, quota)));
 * // … the agent exits …
 * const over = await watch.finish(); // null, or the usage that was over (the folder is emptied)
 */
export class DiskWatch {
  private readonly timer: NodeJS.Timeout;
  private walking: Promise<DiskUsage | null> | null = null;
  private over: DiskUsage | null = null;
  private finishing = false;

  constructor(
    private readonly dir: string,
    private readonly quota: DiskQuota,
    private readonly onOver: (usage: DiskUsage) => void,
    intervalMs = DISK_CHECK_MS,
  ) {
    this.timer = setInterval(() => {
      if (!this.walking) void this.measure();
    }, intervalMs);
    // A check must never keep a process alive on its own.
    this.timer.unref();
  }

  /** Measures now (after a walk under way, which may have missed the latest writes): the usage over the quota, or null. */
  async check(): Promise<DiskUsage | null> {
    if (this.walking) await this.walking;
    return this.measure();
  }

  /** Whether the folder is over its quota now; the first time it is, `onOver` hears of it. */
  private measure(): Promise<DiskUsage | null> {
    this.walking = diskUsage(this.dir, this.quota).then((usage) => {
      this.walking = null;
      if (usage.bytes <= this.quota.bytes && usage.entries <= this.quota.entries) return null;
      if (!this.over) {
        this.over = usage;
        clearInterval(this.timer);
        if (!this.finishing) this.onOver(usage);
      }
      return usage;
    });
    return this.walking;
  }

  /** Stops watching, measures a last time, empties the folder when it is over; the usage over, or null. */
  async finish(): Promise<DiskUsage | null> {
    this.finishing = true;
    clearInterval(this.timer);
    if (this.walking) await this.walking;
    const over = this.over ?? (await this.measure());
    if (over) await emptyDir(this.dir);
    return over;
  }

  /** Stops watching without a last measurement. */
  stop(): void {
    clearInterval(this.timer);
  }
}
