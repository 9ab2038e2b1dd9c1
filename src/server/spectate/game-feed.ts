import { viewState, type GameState, type Viewer } from '../../game/index.js';
import type { Channel, FeedLimits, Member, Snapshot } from './feed-types.js';
import { applyEvent } from '../../game/evolve.js';
import { clonePlain } from '../../game/clone.js';
import type { GameEvent } from '../../protocol/index.js';
import type { EventStore, GameRecord } from '../../store/index.js';
import type { CommittedStep, GameBus } from '../../live/game-bus.js';
import { holdBackOfGame } from '../games/spectator-delay.js';
import { optionsOf, type SpectatorMode } from '../../live/game-options.js';
import { holdsBack, type HoldBack } from '../../live/hold-back.js';
import { HoldBackQueue } from './hold-back-queue.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { estimatedCommit } from './commit-times.js';
import { backfill } from './feed-backfill.js';
import { eventMessage, type ServerMessages, type SpectateNamespace } from './messages.js';
import { IntegrityError } from '../../store/index.js';
import { integrityMessage } from '../integrity-message.js';
import { RecentLog, projected, viewKey, type LogEntry } from './recent-log.js';
import { pendingPackets } from './socket-pressure.js';
import { viewHash } from './state-hash.js';
import { ReasoningIndex, withReasoning } from '../games/stated-reasoning.js';
import { WinEstimates } from './win-estimates.js';

export type { Channel, Member, Snapshot, FeedLimits } from './feed-types.js';

type Room = { name: string; channel: Channel; view: string; viewer: Viewer; members: Set<Member> };

/**
 * One game as clients see it: follows the bus, keeps the tail of the log and the live state in
 * memory, and fans every committed step out once per view: each event is projected once per view
 * and broadcast to that view's room (socket.io encodes a room broadcast once). Nothing here awaits
 * a client: a member whose socket queues more than the bound is dropped with a `resync`. A game with
 * a hold-back (a spectator delay, or broadcast mode: src/live/hold-back.ts) also has a delayed
 * channel, which shows what the hold-back releases: a timer after each commit for the time rule,
 * and each commit for the round rule (see HoldBackQueue).
 */
export class GameFeed {
  hold: HoldBack = { delayMs: 0, until: 'commit' };
  mode: SpectatorMode = 'public';
  ended = false;
  closed = false;
  /** When a step last arrived. */
  private lastActivity: number;
  /** When a subscriber last came or went. */
  private lastTouched: number;
  readonly ready: Promise<void>;
  private state: GameState | null = null;
  private liveHead = 0;
  private delayedHead = 0;
  private log = new RecentLog(0);
  /** Steps that arrive while the feed loads, applied once it has. */
  private buffered: CommittedStep[] | null = [];
  /** seq → view → hash of that view's projected state there. */
  private readonly hashes = new Map<number, Map<string, string>>();
  private readonly snapshots = new Map<string, Promise<Snapshot>>();
  private readonly rooms = new Map<string, Room>();
  private readonly wanted = new Map<string, { viewer: Viewer; count: number }>();
  /** Delayed channel: what the hold-back lets go, and when. */
  private queue = new HoldBackQueue(this.hold);
  private timer: NodeJS.Timeout | null = null;
  /** A broadcast game's LLM reasoning, sent only on the (held-back) event each decision made. */
  private reasons: ReasoningIndex | null = null;
  private readonly unsubscribe: () => void;
  private readonly unresync: () => void;
  /** Each room's win probability, sent after the steps it is sent (win-estimates.ts). */
  private readonly estimates: WinEstimates;

  constructor(
    readonly gameId: string,
    private readonly ports: { store: EventStore; bus: GameBus; ns: SpectateNamespace; logger: JsonLogger; now: () => number },
    private readonly limits: FeedLimits,
  ) {
    this.lastActivity = this.lastTouched = ports.now();
    this.estimates = new WinEstimates({
      gameId,
      closed: () => this.closed,
      ended: () => this.ended,
      head: (channel) => this.head(channel),
      between: (afterSeq, toSeq) => this.log.between(afterSeq, toSeq),
      project: (entry, view, viewer) => projected(entry, view, viewer, this.ended),
      snapshot: (seq, view, viewer) => this.snapshot(seq, view, viewer),
      placementsAt: async (seq) => {
        const [last] = seq > 0 ? await ports.store.read(gameId, seq - 1, 1) : [];
        return last?.type === 'game_ended' ? last.payload.placements : null;
      },
      rooms: (channel) => [...this.rooms.values()].filter((r) => r.channel === channel && r.members.size > 0).map((r) => ({ view: r.view, viewer: r.viewer, emit: (m) => ports.ns.to(r.name).emit('win_probability', m) })),
      warn: (message) => ports.logger.emit('warn', message, { game_id: gameId }),
    });
    // Subscribe before reading the head: a step committed in between arrives on the bus and is
    // recognised by its seq, so none falls between the store and the stream.
    this.unsubscribe = ports.bus.subscribe(gameId, (step) => this.onStep(step));
    this.unresync = ports.bus.onResync(() => {
      if (!this.closed && !this.buffered) this.refill(null);
    });
    this.ready = this.load();
  }

  /** The spectator delay in ms (the time rule's part of the hold-back). */
  get delayMs(): number {
    return this.hold.delayMs;
  }

  /** Whether the delayed channel lags the live one at all. */
  get holdsBack(): boolean {
    return holdsBack(this.hold);
  }

  /** The last seq a channel has released. */
  head(channel: Channel): number {
    return channel === 'live' ? this.liveHead : this.delayedHead;
  }

  /** The in-memory entries after `afterSeq` up to the channel's head, or null if memory no longer reaches back that far. */
  recentAfter(channel: Channel, afterSeq: number): LogEntry[] | null {
    return this.log.between(afterSeq, this.head(channel));
  }

  project(entry: LogEntry, view: string, viewer: Viewer): GameEvent {
    return this.dress(projected(entry, view, viewer, this.ended), viewer);
  }

  /**
   * Reads the traces stored since the last read (a broadcast's only): a client joining after the
   * end gets the last decision's reasoning too, whose trace is stored just after the final step.
   */
  async refreshReasons(): Promise<void> {
    await this.reasons?.refresh();
  }

  /** A projected event as `viewer` is sent it: on the broadcast view, with the reasoning of the decision that made it. */
  dress(event: GameEvent, viewer: Viewer): GameEvent {
    return withReasoning(event, viewer, this.reasons);
  }

  /**
   * What a view's states are keyed by: researchers see private details once the game is over (at
   * every seq, as the REST snapshot shows them), so their views before and after the end differ.
   */
  private key(view: string): string {
    return viewKey(view, this.ended);
  }

  /** The hash of `view`'s state at `seq` if the feed has it at hand. */
  cachedHash(seq: number, view: string): string | undefined {
    return this.hashes.get(seq)?.get(this.key(view));
  }

  async hashAt(seq: number, view: string, viewer: Viewer): Promise<string> {
    const known = this.cachedHash(seq, view);
    if (known) return known;
    const key = this.key(view);
    const { hash } = await this.snapshot(seq, view, viewer);
    this.remember(seq, key, hash);
    return hash;
  }

  /** The projected state at `seq`, shared by every client that asks for the same one at about the same time. */
  snapshot(seq: number, view: string, viewer: Viewer): Promise<Snapshot> {
    const key = `${seq}|${this.key(view)}`;
    let p = this.snapshots.get(key);
    if (!p) {
      const gameOver = this.ended;
      p = this.ports.store.stateAt(this.gameId, seq).then((s) => {
        const state = viewState(s, viewer, gameOver);
        return { state, hash: viewHash(state) };
      });
      this.snapshots.set(key, p);
      p.catch(() => this.snapshots.delete(key));
      if (this.snapshots.size > 32) this.snapshots.delete(this.snapshots.keys().next().value!);
    }
    return p;
  }

  hasSeat(playerId: string): boolean {
    return this.state?.players.some((p) => p.player_id === playerId) ?? false;
  }

  /** A subscriber (catching up or live) needs `view`'s hashes: the live fold computes them from now on. */
  want(view: string, viewer: Viewer): void {
    const w = this.wanted.get(view);
    if (w) w.count++;
    else this.wanted.set(view, { viewer, count: 1 });
    this.lastTouched = this.ports.now();
  }

  unwant(view: string): void {
    const w = this.wanted.get(view);
    if (w && --w.count === 0) this.wanted.delete(view);
    this.lastTouched = this.ports.now();
  }

  get subscribers(): number {
    let n = 0;
    for (const w of this.wanted.values()) n += w.count;
    return n;
  }

  /** Joins a member to its room. Only once it holds everything up to the channel's head (synchronously after sending it). */
  attach(m: Member): void {
    const name = `${this.gameId}|${m.channel}|${m.view}`;
    let room = this.rooms.get(name);
    if (!room) this.rooms.set(name, (room = { name, channel: m.channel, view: m.view, viewer: m.viewer, members: new Set() }));
    room.members.add(m);
    void m.socket.join(name);
    this.estimates.joined(m.channel, m.view, (message) => m.socket.emit('win_probability', message));
  }

  detach(m: Member): void {
    const name = `${this.gameId}|${m.channel}|${m.view}`;
    if (this.rooms.get(name)?.members.delete(m)) void m.socket.leave(name);
  }

  /**
   * Whether the feed can go: nobody has followed it for `graceMs`, and it has nothing to remember.
   * A delayed game's feed stays while its game runs (it alone knows when each step committed),
   * unless the game stopped moving for `stalledMs`.
   */
  idle(now: number, graceMs: number, stalledMs: number): boolean {
    if (this.subscribers > 0 || now - this.lastTouched < graceMs) return false;
    if (!this.holdsBack) return true;
    return (this.ended && this.delayedHead === this.liveHead) || now - this.lastActivity > stalledMs + this.delayMs;
  }

  /** Stops following the game; with a reason, every member is told to resync (or, given an error, is sent that instead). */
  close(reason?: string | ServerMessages['error']): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.unresync();
    if (this.timer) clearTimeout(this.timer);
    for (const room of this.rooms.values()) {
      for (const m of room.members) {
        void m.socket.leave(room.name);
        const seq = this.head(room.channel);
        if (typeof reason === 'string') m.socket.emit('resync', { game_id: this.gameId, seq, reason });
        else if (reason) m.socket.emit('error', reason);
        m.dropped(seq);
      }
    }
    this.rooms.clear();
  }

  private async load(): Promise<void> {
    const game = await this.ports.store.getGame(this.gameId);
    this.hold = holdBackOfGame(game);
    this.mode = optionsOf(game, 0).spectators;
    this.queue = new HoldBackQueue(this.hold);
    if (this.mode === 'broadcast') {
      this.reasons = new ReasoningIndex(this.ports.store, this.gameId);
      await this.reasons.refresh();
    }
    const head = game.last_seq;
    if (this.holdsBack) await this.loadDelayed(game, head);
    else {
      this.state = await this.ports.store.stateAt(this.gameId, head);
      this.log = new RecentLog(head);
      this.liveHead = this.delayedHead = head;
    }
    this.ended = this.state!.status === 'done';
    this.drain();
  }

  /**
   * A delayed game's feed reads the whole log: what the delayed channel has not shown yet must be
   * in memory, and when each of those steps committed decides when it may be shown.
   */
  private async loadDelayed(game: GameRecord, head: number): Promise<void> {
    const now = this.ports.now();
    this.state = await this.ports.store.stateAt(this.gameId, 0);
    this.log = new RecentLog(0);
    let lastDue = 0;
    for (let after = 0; after < head; ) {
      const page = await this.ports.store.read(this.gameId, after, Math.min(this.limits.pageSize, head - after));
      if (page.length === 0) throw new Error(`game ${this.gameId}: the store has no events after ${after} below its head ${head}`);
      for (const e of page) {
        this.fold(e);
        this.log.push(e, null);
        this.queue.event(e.seq, e.turn, e.type);
        const due = (lastDue = Math.max(lastDue, estimatedCommit(game, e, now) + this.delayMs));
        this.queue.due(e.seq, due);
        // The delayed channel will need the hashes of what it has not shown yet; which those are
        // is known only at the end of the log (the round rule), so every held game keeps them all.
        if (e.seq % this.limits.hashEvery === 0 && (due > now || this.hold.until !== 'commit')) this.hashHere(e.seq);
      }
      after = page.at(-1)!.seq;
    }
    this.liveHead = head;
    this.delayedHead = this.queue.head(now, 0);
    this.prune();
  }

  private onStep(step: CommittedStep): void {
    if (this.closed) return;
    this.lastActivity = this.ports.now();
    if (this.buffered) this.buffered.push(step);
    else this.apply(step);
  }

  private apply(step: CommittedStep): void {
    if (step.last_seq <= this.liveHead) return; // already in the store when the feed loaded
    if (step.events[0]!.seq <= this.liveHead) step = { ...step, events: step.events.filter((e) => e.seq > this.liveHead) };
    const first = step.events[0]?.seq;
    if (first !== undefined && first > this.liveHead + 1 && step.last_seq === first + step.events.length - 1) return this.refill(step);
    if (first !== this.liveHead + 1 || step.last_seq !== this.liveHead + step.events.length) {
      return this.fail(`the bus skipped from seq ${this.liveHead} to a step of ${first}…${step.last_seq}`);
    }
    const entries: LogEntry[] = [];
    // The whole last step is shown once the game is over, so it is projected and hashed as such.
    if (step.events.some((e) => e.type === 'game_ended')) this.ended = true;
    try {
      for (const e of step.events) {
        this.fold(e);
        entries.push(this.log.push(e, step.committed_at));
        if (this.holdsBack) this.queue.event(e.seq, e.turn, e.type);
        if (e.seq % this.limits.hashEvery === 0) this.hashHere(e.seq);
      }
    } catch (e) {
      return this.fail(`the engine cannot fold a published step: ${(e as Error).message}`);
    }
    const before = this.liveHead;
    this.liveHead = step.last_seq;
    this.fanout('live', entries, before);
    if (this.holdsBack) {
      this.queue.due(step.last_seq, step.committed_at + this.delayMs);
      // This commit may close a round: what the round rule held may go now, not at a timer.
      this.kick();
    } else this.delayedHead = this.liveHead;
    this.prune();
  }

  /** Applies the steps that arrived while the feed was reading the store; a new gap among them buffers the rest again. */
  private drain(): void {
    const steps = this.buffered ?? [];
    this.buffered = null;
    for (let i = 0; i < steps.length && !this.closed; i++) {
      if (this.buffered) {
        (this.buffered as CommittedStep[]).push(...steps.slice(i));
        return;
      }
      this.apply(steps[i]!);
    }
    if (!this.buffered) this.kick();
  }

  /**
   * Steps went missing on the way here, or may have (`step` null: a resync): buffers what arrives
   * meanwhile, backfills from the store up to `step` (or the store's head; see feed-backfill.ts),
   * then applies the step and whatever arrived meanwhile, in order.
   */
  private refill(step: CommittedStep | null): void {
    this.buffered = step ? [step] : [];
    const feed = { head: () => this.liveHead, closed: () => this.closed, apply: (s: CommittedStep) => this.apply(s) };
    backfill(this.ports, this.gameId, this.limits.pageSize, step ? step.events[0]!.seq - 1 : null, feed).then(
      () => this.drain(),
      (e: unknown) => this.fail(`cannot backfill from the store: ${(e as Error).message}`, e instanceof IntegrityError ? e : undefined),
    );
  }

  /**
   * Moves the live state on by one event. The engine's evolve may keep parts of an event's payload
   * in the state and later change the state in place; folding a copy keeps the logged event as
   * committed, so whoever is shown it later (a delayed audience, a joiner) sees it unchanged.
   */
  private fold(e: GameEvent): void {
    applyEvent(this.state!, clonePlain(e));
  }

  /** Hashes of the live state for every view someone follows (and the anonymous ones a delayed channel will need). */
  private hashHere(seq: number): void {
    const views = [...this.wanted];
    if (this.holdsBack && !this.wanted.has('spectator')) views.push(['spectator', { viewer: { role: 'spectator' }, count: 0 }]);
    if (this.holdsBack && this.mode === 'broadcast' && !this.wanted.has('broadcast')) views.push(['broadcast', { viewer: { role: 'broadcast' }, count: 0 }]);
    for (const [view, { viewer }] of views) {
      if (!this.cachedHash(seq, view)) this.remember(seq, this.key(view), viewHash(viewState(this.state!, viewer, this.ended)));
    }
  }

  private remember(seq: number, view: string, hash: string): void {
    let m = this.hashes.get(seq);
    if (!m) this.hashes.set(seq, (m = new Map<string, string>()));
    m.set(view, hash);
  }

  /** Broadcasts entries to each room of a channel, after dropping members that stopped reading. */
  private fanout(channel: Channel, entries: readonly LogEntry[], before: number): void {
    const sentAt = this.ports.now();
    for (const room of this.rooms.values()) {
      if (room.channel !== channel) continue;
      this.shed(room, before);
      if (room.members.size === 0) continue;
      const to = this.ports.ns.to(room.name);
      for (const entry of entries) {
        const seq = entry.event.seq;
        to.emit('event', eventMessage(this.gameId, this.project(entry, room.view, room.viewer), entry.committedAt, sentAt));
        if (seq % this.limits.hashEvery !== 0) continue;
        const hash = this.cachedHash(seq, room.view);
        if (hash) to.emit('state_hash', { game_id: this.gameId, seq, view: room.view, state_hash: hash });
        else this.ports.logger.emit('warn', 'spectate: no state hash at hand for a live room', { game_id: this.gameId, seq, view: room.view });
      }
    }
    // After the commit and off this call: the estimates fold and send on a later turn.
    this.estimates.after(channel);
  }

  /** One slow client must not grow the server's memory without bound: it stops getting live steps and rejoins from the store. */
  private shed(room: Room, seq: number): void {
    for (const m of room.members) {
      if (pendingPackets(m.socket) <= this.limits.maxPendingPackets) continue;
      room.members.delete(m);
      void m.socket.leave(room.name);
      m.socket.emit('resync', { game_id: this.gameId, seq, reason: 'slow: too many messages queued for this client' });
      m.dropped(seq);
    }
  }

  private schedule(): void {
    if (this.timer || this.closed || this.buffered) return;
    const due = this.queue.nextDue(this.delayedHead);
    if (due === null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, Math.max(0, due - this.ports.now()));
    this.timer.unref();
  }

  /**
   * Looks at once (a commit came in, or the feed caught up) instead of at the next timer. A
   * broadcast reads the traces recorded meanwhile first (the runner stores a decision's trace just
   * after its step, so every step before the latest commit has its trace stored by then), so the
   * reasoning is at hand when its event goes out.
   */
  private kick(): void {
    if (this.closed || this.buffered) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.reasons) return this.release();
    this.reasons.refresh().then(
      () => this.release(),
      (e: unknown) => {
        // The events still go out on time; only their reasoning is missing until a later read.
        this.ports.logger.emit('warn', `spectate: cannot read the stated reasoning: ${(e as Error).message}`, { game_id: this.gameId });
        this.release();
      },
    );
  }

  /** Shows the delayed channel everything the hold-back releases by now. */
  private release(): void {
    this.timer = null;
    if (this.closed) return;
    const to = this.queue.head(this.ports.now(), this.delayedHead);
    if (to > this.delayedHead) {
      const entries = this.log.between(this.delayedHead, to)!;
      const before = this.delayedHead;
      this.delayedHead = to;
      this.fanout('delayed', entries, before);
      this.prune();
    }
    this.schedule();
  }

  private prune(): void {
    const keep = Math.min(this.liveHead, this.delayedHead) - this.limits.retainEvents;
    this.log.prune(keep);
    for (const seq of this.hashes.keys()) if (seq <= keep) this.hashes.delete(seq);
  }

  /** Resets the feed: members are told to resync, or, when the stored log failed its integrity check, that it did (no rejoin would help). */
  private fail(why: string, integrity?: IntegrityError): void {
    this.ports.logger.emit('warn', `spectate: feed reset: ${why}`, { game_id: this.gameId });
    if (integrity) this.close({ code: 'game/integrity', message: integrityMessage(integrity) });
    else this.close('the server lost its place in this game; join again with your last seq');
  }
}
