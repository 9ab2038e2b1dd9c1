import type { JsonLogger } from '../../lib/json-logger.js';
import type { EventStore } from '../../store/index.js';

/** After a failed compaction the ended games still hot are tried again this much later, doubling per failure in a row. */
export const COMPACT_RETRY_MS = 5_000;
const MAX_RETRY_MS = 10 * 60_000;

type Store = Pick<EventStore, 'compact' | 'compactEnded'>;

/**
 * Moves ended games to cold storage in the background (store.compact), one at a time so a game
 * end never waits for it and a burst of ends costs one compaction's worth of database work at
 * once. `sweep()` takes every ended game still hot (at start: a crash mid-compaction left that
 * game wholly hot, so the next start finishes it). A failure is logged and every hot ended game is
 * swept again after a backoff; nothing here throws to its caller.
 *
 * @example const c = new GameCompactor(store, logger); c.sweep(); c.enqueue('game_ab12'); await c.close()
 */
export class GameCompactor {
  private readonly queue = new Set<string>();
  private sweepWanted = false;
  private running: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private readonly stop = new AbortController();

  constructor(
    private readonly store: Store,
    private readonly logger: JsonLogger,
    private readonly retryMs = COMPACT_RETRY_MS,
  ) {}

  /** Queues an ended game (a no-op once closed, or when it is queued already). */
  enqueue(gameId: string): void {
    if (this.stop.signal.aborted) return;
    this.queue.add(gameId);
    this.pump();
  }

  /** Queues every ended game still hot. */
  sweep(): void {
    if (this.stop.signal.aborted) return;
    this.sweepWanted = true;
    this.pump();
  }

  /** Resolves once nothing is queued or running (a retry may still be scheduled). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more work and waits for the compaction under way (a sweep stops between games). */
  async close(): Promise<void> {
    this.stop.abort();
    if (this.retry) clearTimeout(this.retry);
    this.queue.clear();
    await this.idle();
  }

  private pump(): void {
    if (this.running) return;
    this.running = this.drain().finally(() => (this.running = null));
  }

  private async drain(): Promise<void> {
    while (!this.stop.signal.aborted) {
      if (this.sweepWanted) {
        this.sweepWanted = false;
        await this.sweepOnce();
        continue;
      }
      const [gameId] = this.queue;
      if (gameId === undefined) return;
      this.queue.delete(gameId);
      try {
        const outcome = await this.store.compact(gameId);
        this.logger.emit('debug', 'game compacted', { game_id: gameId, outcome });
        this.failures = 0;
      } catch (e) {
        this.failed('cannot compact an ended game', { game_id: gameId, error: message(e) });
      }
    }
  }

  private async sweepOnce(): Promise<void> {
    try {
      const r = await this.store.compactEnded({ signal: this.stop.signal });
      if (r.compacted) this.logger.emit('info', `compacted ${r.compacted} ended game(s)`, { compacted: r.compacted, total: r.total });
      if (r.failed.length) this.failed(`cannot compact ${r.failed.length} ended game(s)`, { failed: r.failed });
      else this.failures = 0;
    } catch (e) {
      this.failed('cannot compact the ended games', { error: message(e) });
    }
  }

  /** Logs, and sweeps again after a backoff: the failed game is among the hot ended ones. */
  private failed(msg: string, fields: Record<string, unknown>): void {
    const delayMs = Math.min(this.retryMs * 2 ** this.failures++, MAX_RETRY_MS);
    this.logger.emit('error', `${msg}; trying again in ${delayMs} ms`, fields);
    if (this.retry || this.stop.signal.aborted) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.sweep();
    }, delayMs);
    this.retry.unref();
  }
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
