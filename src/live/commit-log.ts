/** A step this process saw commit: its first seq and when (ms). */
type Commit = { first: number; at: number };

/**
 * When this process saw each recent step of its delayed games commit (the bus's `committed_at`).
 * A delayed audience may see a step only once it committed `delay` ms ago; the store knows only
 * each event's `ts`, stamped before the append, so a slow append would let an estimate from `ts`
 * release a step early. REST takes the true commit times from here, as the socket feed does.
 * Only games told to `retain` are recorded, each for as long as its delay (plus a margin).
 *
 * @example log.retain(id, 2_000); log.record(id, 5, Date.now()); log.firstAfter(id, Date.now() - 2_000) // 5
 */
export class CommitLog {
  private readonly games = new Map<string, { keepMs: number; commits: Commit[]; done: boolean }>();

  constructor(private readonly marginMs = 1_000) {}

  /** Records a game's steps from now on, keeping each for `delayMs` after it committed. */
  retain(gameId: string, delayMs: number): void {
    if (delayMs <= 0) return;
    const g = this.games.get(gameId);
    if (g) Object.assign(g, { keepMs: delayMs + this.marginMs, done: false });
    else this.games.set(gameId, { keepMs: delayMs + this.marginMs, commits: [], done: false });
  }

  /** A step whose first seq is `first` committed at `at`; ignored for games not retained. */
  record(gameId: string, first: number, at: number): void {
    this.sweep(at);
    const g = this.games.get(gameId);
    if (!g) return;
    g.commits.push({ first, at });
    const old = g.commits.findIndex((c) => c.at >= at - g.keepMs);
    if (old > 0) g.commits.splice(0, old);
  }

  /** The game stopped playing here (ended, paused or failed): forget it once its last step no longer matters. */
  release(gameId: string): void {
    const g = this.games.get(gameId);
    if (g) g.done = true;
  }

  private sweep(now: number): void {
    for (const [id, g] of this.games) if (g.done && (g.commits.at(-1)?.at ?? 0) < now - g.keepMs) this.games.delete(id);
  }

  /** The first seq of the earliest recorded step that committed after `cutoff`, or null if none did. */
  firstAfter(gameId: string, cutoff: number): number | null {
    for (const c of this.games.get(gameId)?.commits ?? []) if (c.at > cutoff) return c.first;
    return null;
  }
}
