/** Plays one game until it ends or the signal asks it to stop; should handle its own errors. */
export type GameJob = (gameId: string, signal: AbortSignal) => Promise<void>;

type Running = { controller: AbortController; done: Promise<void> };

/**
 * Runs games concurrently, at most `limit` at a time, the rest waiting in FIFO order. A game is
 * queued at most once. `close()` drops the queue (those games stay unfinished in the store and
 * are resumed at the next start), aborts the running ones (each stops after its current step)
 * and waits for them.
 *
 * @example const s = new GameScheduler(8, play); s.enqueue('game_ab12'); await s.close()
 */
export class GameScheduler {
  private readonly queue: string[] = [];
  private readonly running = new Map<string, Running>();
  private closed = false;

  constructor(
    private readonly limit: number,
    private readonly job: GameJob,
    /** Told about a job that threw anyway, so one bad game never stalls the queue. */
    private readonly onError: (gameId: string, error: unknown) => void = () => {},
  ) {}

  /** Queues a game; false when closed or the game is already queued or running. */
  enqueue(gameId: string): boolean {
    if (this.closed || this.running.has(gameId) || this.queue.includes(gameId)) return false;
    this.queue.push(gameId);
    this.pump();
    return true;
  }

  /** The games playing now and those waiting for a slot, in order. */
  activity(): { running: string[]; queued: string[] } {
    return { running: [...this.running.keys()], queued: [...this.queue] };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Stops taking work, aborts running games between steps and waits for them. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    for (const r of this.running.values()) r.controller.abort();
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.limit && this.queue.length > 0) {
      const gameId = this.queue.shift()!;
      const controller = new AbortController();
      const done = this.job(gameId, controller.signal)
        .catch((e: unknown) => this.onError(gameId, e))
        .finally(() => {
          this.running.delete(gameId);
          this.pump();
        });
      this.running.set(gameId, { controller, done });
    }
  }
}
