import type { GameFeed } from './game-feed.js';

/**
 * The feeds of this process, one per game that someone follows (or that has a spectator delay,
 * whose commit times must be recorded from its start). A feed that failed to load is forgotten,
 * so the next join tries again.
 */
export class FeedRegistry {
  private readonly feeds = new Map<string, GameFeed>();

  constructor(private readonly create: (gameId: string) => GameFeed) {}

  /** The game's feed once loaded; rejects as its load did (GameNotFoundError for an unknown game). */
  async acquire(gameId: string): Promise<GameFeed> {
    let feed = this.feeds.get(gameId);
    if (!feed || feed.closed) {
      const created = this.create(gameId);
      this.feeds.set(gameId, created);
      created.ready.catch(() => {
        created.close();
        if (this.feeds.get(gameId) === created) this.feeds.delete(gameId);
      });
      feed = created;
    }
    await feed.ready;
    return feed;
  }

  get(gameId: string): GameFeed | undefined {
    return this.feeds.get(gameId);
  }

  /** Closes the feeds nobody follows any more (see GameFeed.idle). */
  sweep(now: number, graceMs: number, stalledMs: number): void {
    for (const [id, feed] of this.feeds) {
      if (feed.closed || feed.idle(now, graceMs, stalledMs)) {
        feed.close();
        this.feeds.delete(id);
      }
    }
  }

  get size(): number {
    return this.feeds.size;
  }

  closeAll(): void {
    for (const feed of this.feeds.values()) feed.close();
    this.feeds.clear();
  }
}
