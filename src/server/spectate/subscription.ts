import { viewEvent, type Viewer } from '../../game/index.js';
import type { GameEvent } from '../../protocol/index.js';
import type { EventStore } from '../../store/index.js';
import type { Channel, GameFeed, Member } from './game-feed.js';
import { eventMessage, type SpectateSocket } from './messages.js';
import { drained, pendingPackets } from './socket-pressure.js';

export type SubscriptionLimits = { hashEvery: number; pageSize: number; drainTimeoutMs: number };

/**
 * One client following one game: a snapshot, then the backlog (from the store, then from the
 * feed's memory), then the live room. Every event goes out in seq order exactly once: the client
 * only joins its room in the same synchronous run that sent it the last event the channel has
 * released, so a step published meanwhile is either in what it was sent or in the next broadcast.
 * Catching up awaits the client's socket (never the game's): a slow reader just catches up slowly.
 */
export class Subscription implements Member {
  private lastSent = 0;
  private live = false;
  private closed = false;

  constructor(
    readonly socket: SpectateSocket,
    readonly feed: GameFeed,
    readonly view: string,
    readonly viewer: Viewer,
    readonly channel: Channel,
    private readonly store: EventStore,
    private readonly limits: SubscriptionLimits,
    /** Told when the subscription ends by itself (dropped for resync). */
    private readonly onEnd: (s: Subscription) => void,
  ) {
    feed.want(view, viewer);
  }

  /** The last seq this client has been sent. */
  get seq(): number {
    return this.live ? this.feed.head(this.channel) : this.lastSent;
  }

  /** Sends the snapshot at `fromSeq`, the backlog after it, then goes live. Rejects on a store failure. */
  async start(fromSeq: number): Promise<void> {
    if (this.viewer.role === 'broadcast') await this.feed.refreshReasons();
    const snap = await this.feed.snapshot(fromSeq, this.view, this.viewer);
    if (this.gone()) return;
    this.socket.emit('snapshot', { game_id: this.feed.gameId, seq: fromSeq, view: this.view, state: snap.state, state_hash: snap.hash });
    this.lastSent = fromSeq;
    await this.catchUp();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.live) this.feed.detach(this);
    this.live = false;
    this.feed.unwant(this.view);
  }

  dropped(seq: number): void {
    this.lastSent = seq;
    this.live = false; // the feed has already taken it out of its room
    this.close();
    this.onEnd(this);
  }

  private gone(): boolean {
    if (this.socket.disconnected) this.close();
    return this.closed;
  }

  private async catchUp(): Promise<void> {
    const gameId = this.feed.gameId;
    for (;;) {
      if (this.gone()) return;
      if (this.feed.closed) {
        this.socket.emit('resync', { game_id: gameId, seq: this.lastSent, reason: 'the game feed was reset; join again with your last seq' });
        this.close();
        this.onEnd(this);
        return;
      }
      const head = this.feed.head(this.channel);
      if (this.lastSent >= head) {
        this.live = true;
        this.feed.attach(this);
        return;
      }
      // Between chunks, let a client that reads slowly drain what it was sent (its own pace, not the game's).
      if (pendingPackets(this.socket) > this.limits.pageSize) {
        await drained(this.socket, this.limits.drainTimeoutMs);
        continue;
      }
      const recent = this.feed.recentAfter(this.channel, this.lastSent)?.slice(0, this.limits.pageSize);
      if (recent) {
        // Hashes first (they may need the store); after that await the head may have moved, so look
        // again. The feed keeps hashes as long as it keeps the entries, so these stay at hand.
        const missing = recent.map((e) => e.event.seq).filter((seq) => this.needsHash(seq) && !this.feed.cachedHash(seq, this.view));
        if (missing.length) {
          await this.hashes(missing);
          continue;
        }
        for (const entry of recent) this.send(this.feed.project(entry, this.view, this.viewer), entry.committedAt);
        continue;
      }
      const page = await this.store.read(gameId, this.lastSent, Math.min(this.limits.pageSize, head - this.lastSent));
      if (page[0]?.seq !== this.lastSent + 1) throw new Error(`game ${gameId}: the store returned no events after seq ${this.lastSent} below ${head}`);
      const hashes = await this.hashes(page.map((e) => e.seq).filter((seq) => this.needsHash(seq)));
      if (this.gone()) return;
      for (const e of page) this.send(this.feed.dress(viewEvent(e, this.viewer, this.feed.ended), this.viewer), null, hashes.get(e.seq));
    }
  }

  private needsHash(seq: number): boolean {
    return seq % this.limits.hashEvery === 0;
  }

  private async hashes(seqs: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const seq of seqs) out.set(seq, await this.feed.hashAt(seq, this.view, this.viewer));
    return out;
  }

  private send(event: GameEvent, committedAt: number | null, hash = this.feed.cachedHash(event.seq, this.view)): void {
    const gameId = this.feed.gameId;
    this.socket.emit('event', eventMessage(gameId, event, committedAt, Date.now()));
    this.lastSent = event.seq;
    if (this.needsHash(event.seq) && hash) this.socket.emit('state_hash', { game_id: gameId, seq: event.seq, view: this.view, state_hash: hash });
  }
}
