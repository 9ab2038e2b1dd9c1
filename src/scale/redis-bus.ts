import type { Redis } from 'ioredis';
import { GameBus, type CommittedStep, type LobbyDelivery, type LobbyNotice } from '../server/games/game-bus.js';
import { busChannel, decodeBusMessage, encodeBusMessage } from './bus-channel.js';
import { redisConnection } from './connection.js';
import type { ScaleSettings } from './settings.js';

export type RedisBusOptions = {
  /** Hear the channel and deliver what arrives to this process's listeners (API nodes); workers only publish. */
  listen: boolean;
  /** A message that fails validation, or a lost link: logged by the owner. */
  onProblem?: (what: string, detail: Record<string, unknown>) => void;
  /** Told of every lobby notice that arrives (before listeners), e.g. to retain a delayed game's commit times. */
  onNotice?: (notice: LobbyNotice) => void;
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

  constructor(
    settings: ScaleSettings,
    private readonly options: RedisBusOptions,
  ) {
    super();
    this.channel = busChannel(settings.prefix);
    this.pub = redisConnection(settings, 'bus-pub');
    this.sub = options.listen ? redisConnection(settings, 'bus-sub') : null;
  }

  /** Connects (and subscribes, when listening). Resolves once Redis has answered, or rejects. */
  async start(): Promise<void> {
    await this.pub.connect();
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
    await sub.connect();
    await sub.subscribe(this.channel);
  }

  /** The connection health checks ping. */
  get connection(): Redis {
    return this.pub;
  }

  override publish(step: CommittedStep): void {
    this.send(encodeBusMessage({ kind: 'step', step }));
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

  private receive(raw: string): void {
    const m = decodeBusMessage(raw);
    if ('error' in m) return this.options.onProblem?.('dropped a malformed bus message', { error: m.error });
    try {
      if (m.kind === 'step') super.publish(m.step);
      else {
        this.options.onNotice?.(m.notice);
        super.announce(m.notice, m.delivery);
      }
    } catch (e) {
      this.options.onProblem?.('a bus listener failed', { error: String(e) });
    }
  }
}
