import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { preview, type AssetEvent } from '../../protocol/index.js';
import { assetPathShape, insideWorkDir } from './asset-path.js';
import type { Violation } from './outcome.js';

/** Assets one invocation may register; later ones are refused, counted in one violation. */
export const MAX_ASSETS = 64;

/** A verdict on one asset: refused now, refused or kept once its path is checked (null: kept), or nothing new to record. */
export type AssetTake = Violation | Promise<Violation | null> | null;

/**
 * The asset rules of seed 001 §4.3 for one invocation: ids unique, paths bounded and inside the
 * work dir, symlinks resolved. What needs no filesystem is refused at once, in the stream
 * callback; the rest is resolved asynchronously, one asset at a time (one agent holds at most one
 * of libuv's threads), so nothing an agent sends can block the event loop. At most MAX_ASSETS
 * assets are checked, which bounds the work queued per invocation.
 *
 * @example
 * const checks = new AssetChecks(workDir);
 * const verdict = checks.take(event); // a Violation, or a promise of one (null: kept)
 * const kept = await checks.kept();   // the assets kept, in order
 */
export class AssetChecks {
  private readonly ids = new Set<string>();
  private count = 0;
  private tooMany: Violation | null = null;
  /** Each check starts when the one before it has finished. Never rejects. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly queued: Array<{ event: AssetEvent; verdict: Promise<Violation | null> }> = [];
  private realWorkDir: Promise<string | null> | null = null;

  /** workDir null: the invocation has none, so no asset is accepted. */
  constructor(private readonly workDir: string | null) {}

  /** True once an asset waits for the filesystem. */
  get waiting(): boolean {
    return this.queued.length > 0;
  }

  /**
   * Refuses `event` at once when no filesystem is needed to, else queues its path check and
   * returns its verdict to come. The violation for too many assets is returned once, on the first
   * asset over the cap, and counts the later ones (which return null).
   */
  take(event: AssetEvent): AssetTake {
    const id = preview(event.assetId, ID_PREVIEW_CHARS);
    if (++this.count > MAX_ASSETS) return this.overCap();
    // Every claimed id counts, accepted or not, so a refused asset cannot come back under its id.
    if (this.ids.has(event.assetId)) return { code: 'asset/duplicate_id', message: `asset id ${id} was already used` };
    this.ids.add(event.assetId);
    const workDir = this.workDir;
    if (workDir === null) return { code: 'asset/no_work_dir', message: `asset ${id} refused: no work dir` };
    const shape = assetPathShape(event.path);
    if (shape) return { code: shape.code, message: `asset ${id} refused: ${shape.message}` };
    const verdict = this.queue.then(async () => {
      this.realWorkDir ??= realpath(resolve(workDir)).catch(() => null);
      return outside(event, await this.realWorkDir);
    });
    this.queue = verdict;
    this.queued.push({ event, verdict });
    return verdict;
  }

  /** Waits for the queued checks: the assets kept, in the order they were sent. */
  async kept(): Promise<AssetEvent[]> {
    const kept: AssetEvent[] = [];
    for (const { event, verdict } of this.queued) if ((await verdict) === null) kept.push(event);
    return kept;
  }

  private overCap(): Violation | null {
    const over = this.count - MAX_ASSETS;
    const message = `${over} asset${over === 1 ? '' : 's'} past the first ${MAX_ASSETS} of this invocation refused`;
    if (this.tooMany) {
      this.tooMany.message = message;
      return null;
    }
    this.tooMany = { code: 'asset/too_many', message };
    return this.tooMany;
  }
}

const ID_PREVIEW_CHARS = 80;
const PATH_PREVIEW_CHARS = 200;

/** Null when the path is inside the work dir. Never rejects: a check that throws refuses its asset. */
async function outside(event: AssetEvent, realWorkDir: string | null): Promise<Violation | null> {
  const inside = realWorkDir !== null && (await insideWorkDir(realWorkDir, event.path).catch(() => false));
  if (inside) return null;
  return {
    code: 'asset/outside_work_dir',
    message: `asset ${preview(event.assetId, ID_PREVIEW_CHARS)} at ${preview(event.path, PATH_PREVIEW_CHARS)} is outside the work dir`,
  };
}
