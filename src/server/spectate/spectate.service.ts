import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import { formatIssues } from '../../protocol/index.js';
import { GameNotFoundError, IntegrityError, type EventStore } from '../../store/index.js';
import { integrityMessage } from '../integrity-message.js';
import { delayed, heldBack, roleOf, viewFor, type Role, type ViewResult } from '../auth/roles.js';
import { describeHoldBack } from '../../live/hold-back.js';
import type { ServerSettings } from '../config.js';
import { GameBus, type LobbyDelivery, type LobbyNotice } from '../../live/game-bus.js';
import { hiddenFork } from '../games/hidden-fork.js';
import { mayBeSeatToken, seatOfToken } from '../games/seat-tokens.js';
import { spectatorDelayOf } from '../games/spectator-delay.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { LOGGER, SETTINGS, SPECTATE_CLOCK, STORE } from '../tokens.js';
import { DUPLICATE_SET_RUNNING, duplicateHold, holdMessage } from '../tournaments/duplicate-hold.js';
import { ClientAddresses } from '../http/client-address.js';
import { FeedRegistry } from './feed-registry.js';
import { GameFeed } from './game-feed.js';
import { emitNotice, JoinMessage, LobbyMessage, type ErrorCode, type SpectateNamespace, type SpectateSocket } from './messages.js';
import { DEFAULT_SPECTATE_LIMITS, SPECTATE_LIMITS, type SpectateLimits } from './spectate-limits.js';
import { RateLimiter } from './rate-limiter.js';
import { Subscription } from './subscription.js';

type Client = {
  socket: SpectateSocket;
  /** Who it is, for the joins of its address (ClientAddresses). */
  address: string;
  lastSeen: number;
  sub: Subscription | null;
  lobby: boolean;
  /** Joins are numbered as they arrive; a join is only accepted if no later one was. */
  joins: number;
  accepted: number;
};

const LOBBY = 'lobby';
/** Researchers and admins hear game ends at once; the public lobby as late as the game's spectators. */
const LOBBY_LIVE = 'lobby:live';
/** Admins also hear what is theirs alone (LobbyDelivery.adminOnly). */
const LOBBY_ADMIN = 'lobby:admin';

/**
 * The spectator stream behind the `/spectate` gateway: who follows what, joins (validated, then a
 * snapshot, the backlog and the live stream, see Subscription), the lobby, heartbeats and stale
 * clients. Fan-out lives in the per-game feeds (GameFeed), which never wait for a client.
 */
@Injectable()
export class SpectateService implements OnModuleDestroy {
  private ns: SpectateNamespace | null = null;
  private readonly clients = new Map<string, Client>();
  private readonly feeds: FeedRegistry;
  private readonly limits: SpectateLimits;
  private readonly addresses: ClientAddresses;
  /** Joins per socket id and per client address. */
  private readonly socketJoins: RateLimiter;
  private readonly addressJoins: RateLimiter;
  private timer: NodeJS.Timeout | null = null;
  private stopLobby: (() => void) | null = null;
  private readonly now: () => number;

  constructor(
    @Inject(STORE) private readonly store: EventStore,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(LOGGER) private readonly logger: JsonLogger,
    private readonly bus: GameBus,
    @Optional() @Inject(SPECTATE_LIMITS) limits?: Partial<SpectateLimits>,
    @Optional() @Inject(SPECTATE_CLOCK) clock?: () => number,
  ) {
    this.now = clock ?? (() => Date.now());
    this.limits = { ...DEFAULT_SPECTATE_LIMITS, ...limits };
    this.addresses = new ClientAddresses(settings.trustProxy);
    this.socketJoins = new RateLimiter(this.limits.socketJoinBurst, this.limits.socketJoinsPerMin, this.now);
    this.addressJoins = new RateLimiter(Math.max(1, Math.floor(settings.joinsPerMin / 4)), settings.joinsPerMin, this.now);
    this.feeds = new FeedRegistry(
      (gameId) =>
        new GameFeed(gameId, { store, bus, ns: this.ns!, logger, now: this.now }, { ...this.limits, hashEvery: settings.hashEvery }),
    );
  }

  /** Starts serving on the namespace: heartbeats, stale checks and the lobby. */
  attach(ns: SpectateNamespace): void {
    this.ns = ns;
    this.stopLobby = this.bus.onLobby((n, d) => this.onLobby(n, d));
    this.timer = setInterval(() => this.tick(), this.settings.heartbeatMs);
    this.timer.unref();
  }

  connected(socket: SpectateSocket): void {
    const client: Client = { socket, address: this.addresses.of(socket.request), lastSeen: this.now(), sub: null, lobby: false, joins: 0, accepted: 0 };
    this.clients.set(socket.id, client);
    // Any message is a sign of life, heartbeat_ack being the one meant for it.
    socket.onAny(() => (client.lastSeen = this.now()));
  }

  disconnected(socket: SpectateSocket): void {
    const client = this.clients.get(socket.id);
    client?.sub?.close();
    this.clients.delete(socket.id);
    this.socketJoins.forget(socket.id);
  }

  /**
   * `join`: checks everything (payload, token, view, game, seq) before touching the client's current
   * subscription, so a refused join changes nothing; an accepted one replaces it.
   */
  async join(socket: SpectateSocket, payload: unknown): Promise<void> {
    const client = this.clients.get(socket.id);
    if (!client) return;
    const ticket = ++client.joins;
    const limited = this.joinLimit(client);
    if (limited) return this.refuse(socket, 'join/rate_limited', limited);
    const msg = JoinMessage.safeParse(payload);
    if (!msg.success) return this.refuse(socket, 'join/invalid', `join needs {gameId, afterSeq?, view?, token?}: ${formatIssues(msg.error.issues)}`);
    const { gameId, afterSeq, view: requested } = msg.data;
    const token = this.tokenOf(socket, msg.data.token);
    let seat: string | null = null;
    let role = this.roleOf(token);
    if (!role && mayBeSeatToken(token)) {
      try {
        seat = await seatOfToken(this.store, gameId, token);
      } catch (e) {
        this.logger.emit('error', 'spectate: cannot check a seat token', { game_id: gameId, error: String(e) });
        return this.refuse(socket, 'server/unavailable', 'the game cannot be read right now; try again');
      }
      // A person's seat follows its own view live, as its HTTP reads do (seat-access.ts): a
      // researcher's reach for holds and hidden forks, never a researcher's views.
      if (seat) role = 'researcher';
    }
    if (!role) return this.refuse(socket, 'auth/unauthorized', 'unknown token');
    if (seat && requested !== undefined && requested !== seat) return this.refuse(socket, 'auth/forbidden', `a seat token follows its own seat's view (${seat}) only, not ${requested}`);
    // Checked before the game is read where the game's mode cannot matter (the broadcast view is
    // allowed here and checked against the game's mode once it is loaded, below).
    const early = seat ? null : viewFor(role, requested, false, 'broadcast');
    if (early && !early.ok) return this.refuse(socket, early.status === 403 ? 'auth/forbidden' : 'join/invalid', early.message);
    // A duplicate deal's games are shown to no one but admins, live or backfilled, until the whole
    // set is over: public plays in one rotation tell the hands of the others. A fork that kept its
    // parent's deck is, until it ends, no game at all to them (hiddenFork).
    if (role !== 'admin') {
      try {
        const hold = await duplicateHold(this.store, gameId);
        if (hold) return this.refuse(socket, DUPLICATE_SET_RUNNING, holdMessage(gameId, hold));
        const game = await this.store.getGame(gameId).catch((e: unknown) => {
          if (e instanceof GameNotFoundError) return null;
          throw e;
        });
        if (game && hiddenFork(game, role)) return this.refuse(socket, 'game/not_found', `no game ${gameId}`);
      } catch (e) {
        this.logger.emit('error', 'spectate: cannot check a tournament game', { game_id: gameId, error: String(e) });
        return this.refuse(socket, 'server/unavailable', 'the game cannot be read right now; try again');
      }
    }
    let feed: GameFeed;
    try {
      feed = await this.feeds.acquire(gameId);
    } catch (e) {
      if (e instanceof GameNotFoundError) return this.refuse(socket, 'game/not_found', `no game ${gameId}`);
      this.logger.emit('error', 'spectate: cannot load a game', { game_id: gameId, error: String(e) });
      if (e instanceof IntegrityError) return this.refuse(socket, 'game/integrity', integrityMessage(e));
      return this.refuse(socket, 'server/unavailable', 'the game cannot be read right now; try again');
    }
    const view: ViewResult = seat ? { ok: true, viewer: { role: 'seat', player_id: seat } } : viewFor(role, requested, false, feed.mode);
    if (!view.ok) return this.refuse(socket, view.status === 403 ? 'auth/forbidden' : 'join/invalid', view.message);
    const viewName = view.viewer.role === 'seat' ? view.viewer.player_id : view.viewer.role;
    if (view.viewer.role === 'seat' && !feed.hasSeat(view.viewer.player_id)) return this.refuse(socket, 'join/invalid', `this game has no seat ${viewName}`);
    const channel = heldBack(role, view.viewer) && feed.holdsBack ? 'delayed' : 'live';
    const head = feed.head(channel);
    const from = afterSeq ?? head;
    if (from > head) {
      const behind = channel === 'delayed' ? ` (${view.viewer.role === 'broadcast' ? 'the broadcast shows' : 'spectators watch'} this game ${describeHoldBack(feed.hold)})` : '';
      return this.refuse(socket, 'join/seq_out_of_range', `afterSeq ${from} is past seq ${head}, the last one you may see now${behind}`);
    }
    if (socket.disconnected || ticket < client.accepted || this.clients.get(socket.id) !== client) return;
    client.accepted = ticket;
    client.sub?.close();
    const sub = new Subscription(socket, feed, viewName, view.viewer, channel, this.store, { ...this.limits, hashEvery: this.settings.hashEvery }, (s) => {
      if (client.sub === s) client.sub = null;
    });
    client.sub = sub;
    try {
      await sub.start(from);
    } catch (e) {
      sub.close();
      if (client.sub === sub) client.sub = null;
      this.logger.emit('error', 'spectate: catching a client up failed', { game_id: gameId, error: String(e) });
      if (e instanceof IntegrityError) this.refuse(socket, 'game/integrity', integrityMessage(e));
      else this.refuse(socket, 'server/unavailable', 'the game cannot be read right now; join again with your last seq');
    }
  }

  /** `leave`: stops following the game (the lobby stays). */
  leave(socket: SpectateSocket): void {
    const client = this.clients.get(socket.id);
    if (!client) return;
    client.accepted = ++client.joins; // a join still in flight is superseded too
    client.sub?.close();
    client.sub = null;
  }

  /** `lobby`: hear games start and end. */
  lobby(socket: SpectateSocket, payload: unknown): void {
    const client = this.clients.get(socket.id);
    if (!client) return;
    const msg = LobbyMessage.safeParse(payload);
    if (!msg.success) return this.refuse(socket, 'lobby/invalid', `lobby takes nothing or {token?}: ${formatIssues(msg.error.issues)}`);
    const role = this.roleOf(this.tokenOf(socket, msg.data?.token));
    if (!role) return this.refuse(socket, 'auth/unauthorized', 'unknown token');
    client.lobby = true;
    void socket.join(delayed(role) ? LOBBY : role === 'admin' ? [LOBBY_LIVE, LOBBY_ADMIN] : LOBBY_LIVE);
    socket.emit('lobby_joined', { role });
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
    this.stopLobby?.();
    this.feeds.closeAll();
  }

  /** The token a message names, else the handshake's `auth.token`. */
  private tokenOf(socket: SpectateSocket, token: string | undefined): string | undefined {
    const auth = (socket.handshake.auth as Record<string, unknown> | undefined)?.['token'];
    return token ?? (typeof auth === 'string' ? auth : undefined);
  }

  private roleOf(token: string | undefined): Role | null {
    const r = roleOf(this.settings, token);
    return r.ok ? r.role : null;
  }

  /**
   * Why this join is one too many (null: go ahead). Every join counts, refused ones too: each
   * costs the store a read or more. A socket follows one game at a time, so this also bounds how
   * often a client can make the server catch it up from the store.
   */
  private joinLimit(client: Client): string | null {
    const retry = (ms: number) => `try again in ${Math.ceil(ms / 1000)} s`;
    const socketWait = this.socketJoins.take(client.socket.id);
    if (socketWait > 0)
      return `too many joins on this connection: at most ${this.socketJoins.capacity} at once, then ${this.socketJoins.perMinute} a minute; ${retry(socketWait)}`;
    const addressWait = this.addressJoins.take(client.address);
    if (addressWait > 0)
      return `too many joins from ${client.address}: at most ${this.addressJoins.capacity} at once, then ${this.addressJoins.perMinute} a minute; ${retry(addressWait)}`;
    return null;
  }

  private refuse(socket: SpectateSocket, code: ErrorCode, message: string): void {
    socket.emit('error', { code, message });
  }

  /** Every heartbeat interval: drop stale clients, beat for the rest, close feeds nobody follows. */
  private tick(): void {
    const now = this.now();
    for (const client of this.clients.values()) {
      if (now - client.lastSeen > this.settings.staleMs) {
        this.logger.emit('info', 'spectate: disconnecting a stale client', { socket: client.socket.id, silent_ms: now - client.lastSeen });
        client.socket.disconnect(true);
        continue;
      }
      if (client.sub || client.lobby) client.socket.emit('heartbeat', { ts: now, seq: client.sub?.seq ?? null });
    }
    this.feeds.sweep(now, this.limits.idleFeedMs, this.limits.stalledFeedMs);
    this.addressJoins.sweep();
  }

  private onLobby(notice: LobbyNotice, delivery: LobbyDelivery): void {
    const ns = this.ns!;
    const everyone = delivery.adminOnly ? [LOBBY_ADMIN] : [LOBBY, LOBBY_LIVE];
    if (notice.type === 'game_started' || notice.type === 'tournament_started') {
      emitNotice(ns.to(everyone), notice);
      // Follow it from its first commit: a delayed game's feed must know when each step committed
      // to hold it back from then (one nobody watches without a delay is swept soon after).
      if (notice.type === 'game_started')
        this.feeds.acquire(notice.game_id).catch((e: unknown) => this.logger.emit('warn', 'spectate: cannot follow a started game', { game_id: notice.game_id, error: String(e) }));
      return;
    }
    if (notice.type === 'game_failed') {
      // No hidden information in it, and no more events will come for a delay to hold back.
      emitNotice(ns.to(everyone), notice);
      return;
    }
    // How a game ended is news anonymous spectators get no sooner than the game's last events.
    const emit = (room: string) => emitNotice(ns.to(room), notice);
    emit(LOBBY_LIVE);
    const delay =
      delivery.publicDelayMs !== undefined
        ? Promise.resolve(delivery.publicDelayMs)
        : notice.type === 'tournament_ended'
          ? Promise.resolve(0)
          : this.store.getGame(notice.game_id).then(spectatorDelayOf, () => 0);
    void delay.then((ms) => {
      if (ms === 0) emit(LOBBY);
      else setTimeout(() => emit(LOBBY), ms).unref();
    });
  }
}
