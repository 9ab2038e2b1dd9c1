import type { EventStore } from '../../store/index.js';
import type { CommittedStep } from '../../live/game-bus.js';

/** The feed a backfill fills: where its live head is, whether it stopped, and how it takes a step. */
export type BackfillTarget = {
  head(): number;
  closed(): boolean;
  apply(step: CommittedStep): void;
};

/**
 * Steps went missing on the way to a feed (a bus between processes is at most once: a node that
 * lost its Redis link misses what was published meanwhile), or may have (`upTo` null: a resync,
 * so up to the store's head). The store has them: reads what lies between the feed's live head and
 * `upTo` page by page and hands each page to the feed as one step committed now (the real commit
 * times went with the lost messages). Stops early once the feed closes; a store that lacks an
 * event below the target is an error (the feed resets its members).
 *
 * @example await backfill({ store, now: Date.now }, 'game_1', 500, 41, feed) // seqs head+1…41
 */
export async function backfill(ports: { store: EventStore; now: () => number }, gameId: string, pageSize: number, upTo: number | null, feed: BackfillTarget): Promise<void> {
  const target = upTo ?? (await ports.store.getGame(gameId)).last_seq;
  while (feed.head() < target && !feed.closed()) {
    const head = feed.head();
    const page = await ports.store.read(gameId, head, Math.min(pageSize, target - head));
    if (page[0]?.seq !== head + 1) throw new Error(`the store has no events after seq ${head} below ${target}`);
    feed.apply({ game_id: gameId, events: page, last_seq: page.at(-1)!.seq, committed_at: ports.now() });
  }
}
