import { viewEvent, type Viewer } from '../../game/index.js';
import type { GameEvent } from '../../protocol/index.js';

/** A committed event the feed holds, with its projections made so far (one per view). */
export type LogEntry = {
  event: GameEvent;
  /** When the bus reported it committed (ms); null when it was read back from the store. */
  committedAt: number | null;
  projections: Map<string, GameEvent>;
};

/**
 * The tail of a game's log in memory: what a joining client needs to close the gap between the
 * store and the live stream, and what a delayed audience has not been shown yet. Each event is
 * projected at most once per view key, however many clients receive it.
 */
export class RecentLog {
  private entries: LogEntry[] = [];
  /** Entries before this index are dropped (compacted lazily, so pruning is O(1) amortised). */
  private start = 0;

  constructor(
    /** The seq just before the first entry. */
    private base: number,
  ) {}

  get head(): number {
    return this.base + this.entries.length - this.start;
  }

  push(event: GameEvent, committedAt: number | null): LogEntry {
    const entry = { event, committedAt, projections: new Map<string, GameEvent>() };
    this.entries.push(entry);
    return entry;
  }

  /** Entries with afterSeq < seq ≤ toSeq, or null when the tail no longer reaches back to afterSeq. */
  between(afterSeq: number, toSeq: number): LogEntry[] | null {
    if (afterSeq < this.base || toSeq > this.head) return null;
    return this.entries.slice(this.start + afterSeq - this.base, this.start + toSeq - this.base);
  }

  /** Forgets entries with seq ≤ keepAfter. */
  prune(keepAfter: number): void {
    const drop = Math.min(keepAfter, this.head) - this.base;
    if (drop <= 0) return;
    this.start += drop;
    this.base += drop;
    if (this.start > 1024 && this.start * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.start);
      this.start = 0;
    }
  }
}

/** Names a view's projections: researchers see private details once the game is over, so theirs differ before and after the end. */
export const viewKey = (view: string, gameOver: boolean): string => (gameOver && view === 'researcher' ? 'researcher!' : view);

/** An entry as `viewer` sees it, projected once per view key. */
export function projected(entry: LogEntry, view: string, viewer: Viewer, gameOver: boolean): GameEvent {
  const key = viewKey(view, gameOver);
  let p = entry.projections.get(key);
  if (!p) {
    p = viewEvent(entry.event, viewer, gameOver);
    entry.projections.set(key, p);
  }
  return p;
}
