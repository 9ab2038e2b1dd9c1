import type { Redis } from 'ioredis';
import { KeyedListeners } from '../lib/keyed-listeners.js';
import { GameBus, type CommittedStep, type LobbyDelivery, type LobbyNotice } from '../live/game-bus.js';
import type { GameEvent } from '../protocol/index.js';
import { busChannel, decodeBusMessage, encodeBusMessage, type StoredBatch } from './bus-channel.js';
import { connectRedis, redisConnection } from './connection.js';
import type { ScaleSettings } from './settings.js';

export type RedisBusOptions = {
  /** Hear the channel and deliver what arrives to this process's listeners (API nodes); workers only publish. */
  listen: boolean;
  /** A message that fails validation, or a lost link: logged by the owner. */
  onProblem?: (what: string, detail: Record<string, unknown>) => void;
  /** Told of every lobby notice that arrives (before listeners), e.g. to retain a delayed game's commit times. */
  onNotice?: (notice: LobbyNotice) => void;
  /**
   * Reads a stored batch's events (`afterSeq` < seq ≤ `lastSeq`) from the store, so a batch
   * announced without its events (publishStored) reaches this process's step listeners as a
   * step. Asked only for games something here listens to; without it, they hear only onStored.
   */
  readStored?: (gameId: string, afterSeq: number, lastSeq: number) => Promise<GameEvent[]>;
};

/**
 * The game bus of a scaled-out deployment: a Redis pub/sub channel carries every committed step
 * and lobby notice from whichever process produced it (a worker, the node coordinating a
 * tournament) to every API node, where it is delivered to that node's listeners exactly as an
 * in-process publish would be. Each node's GameFeed then projects once per view for its own
 * rooms. Delivery is at most once (pub/sub): a node that misses a step (its link was down) hears
 * `resync` on reconnect, and a feed that sees a seq gap backfills from the store, which is the
 * truth either way.
 */
export class RedisGameBus extends GameBus {
  private readonly pub: Redis;
  private readonly sub: Redis | null;
  private readonly channel: string;
  private connectedOnce = false;
  private readonly stored = new KeyedListeners<StoredBatch>();

  constructor(
    private readonly settings: ScaleSettings,
    private readonly options: RedisBusOptions,
  ) {
    super();
    this.channel = busChannel(settings.prefix);
    this.pub = redisConnection(settings, 'bus-pub');
    this.sub = options.listen ? redisConnection(settings, 'bus-sub') : null;
  }

  /** Connects (and subscribes, when listening). Resolves once Redis has answered, or rejects (RedisUnavailableError). */
  async start(): Promise<void> {
    await connectRedis(this.pub, this.settings);
    const sub = this.sub;
    if (!sub) return;
    sub.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.receive(raw);
    });
    // ioredis re-subscribes by itself after a reconnect; what was published meanwhile is lost.
    sub.on('ready', () => {
      if (this.connectedOnce) {
        this.options.onProblem?.('bus link restored; feeds backfill from the store', {});
        this.resync();
      }
      this.connectedOnce = true;
    });
    await connectRedis(sub, this.settings);
    await sub.subscribe(this.channel);
  }

  /** The connection health checks ping. */
  get connection(): Redis {
    return this.pub;
  }

  override publish(step: CommittedStep): void {
    this.send(encodeBusMessage({ kind: 'step', step }));
  }

  /** Tells every process that a batch of a game is in the store, without carrying its events. */
  publishStored(batch: StoredBatch): void {
    this.send(encodeBusMessage({ kind: 'stored', ...batch }));
  }

  /** Told of each stored batch of the game (e.g. a coordinator waiting for its end). */
  onStored(gameId: string, listener: (batch: StoredBatch) => void): () => void {
    return this.stored.add(gameId, listener);
  }

  override announce(notice: LobbyNotice, delivery: LobbyDelivery = {}): void {
    this.send(encodeBusMessage({ kind: 'lobby', notice, delivery }));
  }

  /** Nest closes it with the app (API nodes). */
  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    await Promise.all([this.pub, ...(this.sub ? [this.sub] : [])].map((r) => r.quit().catch(() => r.disconnect())));
  }

  private send(message: string): void {
    // Queued by ioredis while Redis is away (no retry limit), sent in order once it is back.
    this.pub.publish(this.channel, message).catch((e: unknown) => this.options.onProblem?.('cannot publish on the bus', { error: String(e) }));
  }

  /**
   * A batch announced without its events: its listeners hear it, and the step listeners of the
   * game (spectator feeds) get its events read from the store, as one step, just as if they had
   * crossed the channel. A read that fails makes every feed compare itself with the store.
   */
  private receiveStored(batch: StoredBatch): void {
    this.stored.emit(batch.game_id, batch);
    const read = this.options.readStored;
    if (!read || !this.listening(batch.game_id)) {
      // Nobody here shows the steps; a delayed game's commit times are still recorded.
      this.commits.record(batch.game_id, batch.first_seq, batch.committed_at);
      return;
    }
    void (async () => {
      let events: GameEvent[];
      try {
        events = await read(batch.game_id, batch.first_seq - 1, batch.last_seq);
        if (events.length !== batch.last_seq - batch.first_seq + 1) throw new Error(`the store holds ${events.length} of events ${batch.first_seq}…${batch.last_seq}`);
      } catch (e) {
        this.options.onProblem?.('cannot read a stored batch announced on the bus; feeds backfill from the store', { game_id: batch.game_id, error: String(e) });
        return this.resync();
      }
      try {
        super.publish({ game_id: batch.game_id, events, last_seq: batch.last_seq, committed_at: batch.committed_at });
      } catch (e) {
        this.options.onProblem?.('a bus listener failed', { error: String(e) });
      }
    })();
  }

  private receive(raw: string): void {
    const m = decodeBusMessage(raw);
    if ('error' in m) return this.options.onProblem?.('dropped a malformed bus message', { error: m.error });
    try {
      if (m.kind === 'step') super.publish(m.step);
      else if (m.kind === 'stored') this.receiveStored({ game_id: m.game_id, first_seq: m.first_seq, last_seq: m.last_seq, committed_at: m.committed_at, ended: m.ended });
      else {
        this.options.onNotice?.(m.notice);
        super.announce(m.notice, m.delivery);
      }
    } catch (e) {
      this.options.onProblem?.('a bus listener failed', { error: String(e) });
    }
  }
}
