import { batch, computed, signal } from '@preact/signals';
import { fetchEvents, fetchSnapshot, type WireEvent } from './history.js';
import { Timeline, hashView, viewerOf, type View } from './view-bridge.js';
import { keepAlive, spectateSocket, type ErrorMsg, type EventMsg, type SnapshotMsg, type StateHashMsg } from '../lib/spectate-socket.js';
import type { Socket } from 'socket.io-client';

export type Connection = 'loading' | 'connecting' | 'live' | 'stale' | 'offline' | 'replay' | 'error';

/** Counters shown in the debug strip (and read by the browser tests). */
export type Health = {
  hashChecks: number;
  hashMismatches: number;
  resyncs: number;
  gaps: number;
  duplicates: number;
  reconnects: number;
  /** Events the shared reducer refused (each resynced from a snapshot). */
  foldErrors: number;
};

export const SPEEDS = [0.5, 1, 2, 4, 8, 16, 32] as const;

/** Events per second at 1×: a readable pace for a replay. */
const BASE_RATE = 4;

/**
 * One player for live and replay. It holds the viewer's projected events (from the REST history,
 * then the socket) in a Timeline (folded checkpoints), shows the state at `cursor`, and follows
 * the head while `following`. Every state_hash the server sends is checked against the local
 * fold; a mismatch is counted and the state is resynced from a server snapshot.
 */
export class Player {
  readonly timeline = signal<Timeline | null>(null);
  /** Bumped whenever the timeline gains events (the Timeline itself is mutable). */
  readonly version = signal(0);
  readonly cursor = signal(0);
  readonly following = signal(true);
  readonly playing = signal(false);
  readonly speed = signal<number>(1);
  readonly connection = signal<Connection>('loading');
  readonly error = signal<string | null>(null);
  /** Whether the history behind the head is folded yet (the scrubber reaches back once it is). */
  readonly history = signal<'loading' | 'loaded'>('loading');
  readonly health = signal<Health>({ hashChecks: 0, hashMismatches: 0, resyncs: 0, gaps: 0, duplicates: 0, reconnects: 0, foldErrors: 0 });
  readonly lastEventAt = signal<number | null>(null);
  /** The latest end-to-end lag the server reported (sent_at − committed_at), ms. */
  readonly lagMs = signal<number | null>(null);
  /** The last hash mismatch (for debugging the shared reducer): where, and both hashes. */
  readonly lastMismatch = signal<{ seq: number; local: string; server: string } | null>(null);

  readonly head = computed(() => {
    void this.version.value;
    return this.timeline.value?.head ?? 0;
  });
  /** The projected state at the cursor (a seek: one checkpoint plus a bounded fold). */
  readonly state = computed<View | null>(() => {
    void this.version.value;
    const t = this.timeline.value;
    return t ? t.stateAt(Math.min(this.cursor.value, t.head)) : null;
  });

  private socket: Socket | null = null;
  private abort = new AbortController();
  private raf = 0;
  private playTimer: ReturnType<typeof setTimeout> | null = null;
  private staleTimer: ReturnType<typeof setInterval> | null = null;
  private pending: WireEvent[] = [];
  private closed = false;

  constructor(
    readonly gameId: string,
    readonly view: string,
    private readonly token: string,
    /** Whether the game is still being played (false once it ends: see endLive). */
    private live: boolean,
    /** Whether the game had ended when the page loaded (researchers then see everything). */
    private readonly gameOver: boolean,
    /** The game record's last_seq at load: the history's pages up to it are fetched at once. */
    private readonly expectedHead = 0,
    /** A replay file's history: the player then asks the server for nothing at all. */
    private readonly offline: { base: View; events: WireEvent[] } | null = null,
  ) {}

  /**
   * Draws the head first, then folds the history behind it. The head snapshot (the live head, or
   * an ended game's final, result state) becomes a one-state timeline at once, so the table shows
   * before a single event page has arrived and a live game joins its feed from there. The history
   * (the snapshot at seq 0 and every event) is fetched meanwhile, folded, and swapped in under the
   * cursor; its fold at the head is checked against that same head snapshot (the only one fetched).
   */
  async start(initialSeq: number | null): Promise<void> {
    try {
      if (this.offline) {
        this.adopt(this.fold({ state: this.offline.base }, this.offline.events), initialSeq);
        this.history.value = 'loaded';
        return;
      }
      // Every view starts at seq 0, the undealt table (a seat's included: game_started deals its
      // private view in). Starting a seat at 1 left seq 0 on the scrubber showing seq 1's state,
      // which the rest check then compared with the server's seq 0: a mismatch and a refold.
      // Asked for right after the head (first, so a busy server answers it first), read once the
      // head is on screen.
      const headReq = fetchSnapshot(this.gameId, this.view, undefined, this.abort.signal);
      const history = Promise.all([fetchSnapshot(this.gameId, this.view, 0, this.abort.signal), fetchEvents(this.gameId, this.view, 0, this.abort.signal, this.expectedHead)]);
      history.catch(() => undefined);
      const head = await headReq;
      if (this.closed) return;
      this.headHash = { seq: head.seq, hash: head.state_hash, state: head.state as View };
      performance.mark('viz:head');
      this.adopt(new Timeline(head.state as View, head.seq, viewerOf(this.view), this.gameOver), null);
      if (this.live) this.connect();
      const [base, events] = await history;
      performance.mark('viz:history');
      const full = await this.foldChecked(base, events.events);
      if (this.closed) return;
      // A delayed head can move on between the two requests: read the events in between.
      this.flush();
      const shown = this.timeline.value!;
      if (full.head < shown.first) {
        const more = await fetchEvents(this.gameId, this.view, full.head, this.abort.signal, shown.first);
        for (const e of more.events) if (e.seq === full.head + 1 && !full.append(e)) await this.refused(full, e.seq);
        if (this.closed) return;
        this.flush();
      }
      if (full.head < shown.first) throw new Error(`the history ends at seq ${full.head}, before the head shown (${shown.first})`);
      // What the socket brought while the history loaded follows it.
      for (const e of shown.slice(Math.max(full.head, shown.first), shown.head)) if (!full.append(e)) await this.refused(full, e.seq);
      performance.mark('viz:folded');
      this.adopt(full, this.wanted ?? initialSeq);
      this.history.value = 'loaded';
      // The fold at the head is checked against the head snapshot already held: no second fetch.
      await this.check(head.seq, head.state_hash, head.state as View);
    } catch (e) {
      if (this.closed) return;
      this.error.value = e instanceof Error ? e.message : String(e);
      this.connection.value = 'error';
    }
  }

  /** Folds a base state and the events after it (seq 0 on); a refused event restarts from the server's snapshot. */
  private async foldChecked(base: { state: unknown }, events: WireEvent[]): Promise<Timeline> {
    const t = new Timeline(base.state as View, 0, viewerOf(this.view), this.gameOver);
    for (const e of events) if (!t.append(e)) await this.refused(t, e.seq);
    return t;
  }

  /** A replay file's history folded at once (a refused event throws: there is no server to ask). */
  private fold(base: { state: unknown }, events: WireEvent[]): Timeline {
    const t = new Timeline(base.state as View, 0, viewerOf(this.view), this.gameOver);
    for (const e of events) if (!t.append(e)) throw new Error(`the replay's event at seq ${e.seq} does not fold onto the table before it: the file is damaged or was not written by Tiltyard`);
    return t;
  }

  /**
   * Shows `t`: the head-only timeline first, then the full one in its place. A deep link's seq
   * wins once it can be shown; otherwise a live game follows its head and an ended one rests on
   * its final position (its result), not on the empty table of seq 0.
   */
  private adopt(t: Timeline, initialSeq: number | null): void {
    const first = this.timeline.value === null;
    batch(() => {
      this.timeline.value = t;
      this.version.value++;
      if (initialSeq !== null) {
        this.following.value = false;
        this.cursor.value = this.clamp(initialSeq, t);
      } else if (first) {
        this.following.value = this.live;
        this.cursor.value = t.head;
      } else if (this.following.value) this.cursor.value = t.head;
      if (first) this.connection.value = this.live ? 'connecting' : 'replay';
    });
  }

  /**
   * The shared reducer refused the event at `seq`: take the server's snapshot there (counted as a
   * resync and a fold error), and keep going from it.
   */
  private async refused(t: Timeline, seq: number): Promise<void> {
    // A file has no server to ask: say where it stops making sense (the earlier seqs still play).
    if (this.offline) throw new Error(`the replay's event at seq ${seq} does not fold onto the table before it: the file is damaged or was not written by Tiltyard`);
    let at: number | null = seq;
    while (at !== null) {
      this.bump({ resyncs: 1, foldErrors: 1 });
      const snap = await fetchSnapshot(this.gameId, this.view, at, this.abort.signal);
      at = t.restartAt(at, snap.state as View);
    }
  }

  /**
   * The position has rested at `seq` showing a state with `hash`: while paused (not following a
   * live head), check it against the server's snapshot there — one snapshot per seek, and a drift
   * of the shared reducer never stays on screen.
   */
  async verifyRest(seq: number, hash: string): Promise<void> {
    if (this.playing.value || this.following.value || this.verified.has(seq) || this.closed || this.offline) return;
    this.verified.add(seq);
    // The head's snapshot is held already (start): compare with it rather than fetch it again.
    const held = this.headHash;
    if (held && held.seq === seq) {
      if (held.hash === hash) return this.bump({ hashChecks: 1 });
      return this.check(seq, held.hash, held.state);
    }
    const snap = await fetchSnapshot(this.gameId, this.view, seq, this.abort.signal);
    if (this.closed) return;
    if (snap.state_hash === hash) return this.bump({ hashChecks: 1 });
    await this.check(seq, snap.state_hash, snap.state as View);
  }

  private readonly verified = new Set<number>();
  /** Where the position was moved to before the history came in (see seek). */
  private wanted: number | null = null;
  /** The head snapshot fetched at start: its seq, the server's hash there, and its state. */
  private headHash: { seq: number; hash: string; state: View } | null = null;

  private bump(patch: Partial<Health>): void {
    const h = this.health.value;
    const next = { ...h };
    for (const [k, v] of Object.entries(patch) as [keyof Health, number][]) next[k] = h[k] + v;
    this.health.value = next;
  }

  private connect(): void {
    const socket = spectateSocket(this.token);
    this.socket = socket;
    keepAlive(socket);
    let connectedOnce = false;
    socket.on('connect', () => {
      if (connectedOnce) this.bump({ reconnects: 1 });
      connectedOnce = true;
      this.connection.value = 'connecting';
      this.join();
    });
    socket.on('disconnect', () => {
      if (!this.closed) this.connection.value = 'offline';
    });
    socket.on('snapshot', (m: SnapshotMsg) => void this.onSnapshot(m));
    socket.on('event', (m: EventMsg) => this.onEvent(m));
    socket.on('state_hash', (m: StateHashMsg) => void this.onStateHash(m));
    socket.on('resync', (m: { seq: number }) => {
      this.bump({ resyncs: 1 });
      this.join(m.seq);
    });
    socket.on('heartbeat', () => this.touch());
    socket.on('error', (m: ErrorMsg) => {
      this.error.value = `${m.code}: ${m.message}`;
    });
    this.staleTimer = setInterval(() => {
      const at = this.lastEventAt.value;
      if (this.connection.value === 'live' && at !== null && performance.now() - at > 15_000) this.connection.value = 'stale';
    }, 1000);
  }

  private touch(): void {
    this.lastEventAt.value = performance.now();
    if (this.connection.value === 'stale') this.connection.value = 'live';
  }

  /** (Re)joins after the last seq held: the server answers a snapshot there, then what follows. */
  private join(after?: number): void {
    const held = after ?? this.flushAndHead();
    this.socket?.emit('join', { gameId: this.gameId, afterSeq: held, view: this.view, ...(this.token ? { token: this.token } : {}) });
  }

  private flushAndHead(): number {
    this.flush();
    return this.timeline.value?.head ?? 0;
  }

  private async onSnapshot(m: SnapshotMsg): Promise<void> {
    const t = this.timeline.value;
    if (!t || m.game_id !== this.gameId) return;
    this.flush();
    this.connection.value = 'live';
    this.touch();
    if (m.seq > t.head) {
      // The server starts past what we hold (we were too far behind): take its state as a new base.
      t.rebase(m.seq, m.state as View);
      batch(() => {
        this.version.value++;
        this.cursor.value = this.clamp(this.cursor.value, t);
      });
      return;
    }
    await this.check(m.seq, m.state_hash, m.state as View);
  }

  private onEvent(m: EventMsg): void {
    if (m.game_id !== this.gameId) return;
    this.touch();
    if (m.committed_at !== null) this.lagMs.value = Math.max(0, m.sent_at - m.committed_at);
    this.pending.push(m.event as unknown as WireEvent);
    // Render at most once a frame, however fast events come.
    if (!this.raf) this.raf = requestAnimationFrame(() => this.flush());
  }

  /** Appends queued events: exactly seq head+1, head+2… (duplicates dropped, a gap rejoins). */
  private flush(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    const t = this.timeline.value;
    if (!t || this.pending.length === 0) return;
    const queued = this.pending;
    this.pending = [];
    let appended = 0;
    let dup = 0;
    let gap = false;
    for (const e of queued) {
      if (e.seq <= t.head) dup++;
      else if (e.seq === t.head + 1) {
        if (!t.append(e)) void this.refused(t, e.seq).then(() => this.version.value++);
        appended++;
      } else {
        gap = true;
        break;
      }
    }
    if (dup || gap) this.bump({ duplicates: dup, gaps: gap ? 1 : 0 });
    if (gap) this.join();
    if (appended)
      batch(() => {
        this.version.value++;
        if (this.following.value) this.cursor.value = t.head;
      });
  }

  private async onStateHash(m: StateHashMsg): Promise<void> {
    if (m.game_id !== this.gameId) return;
    this.flush();
    const t = this.timeline.value;
    if (!t || m.seq > t.head) return;
    await this.check(m.seq, m.state_hash, null);
  }

  /** Compares the local fold at `seq` with the server's hash; on a mismatch, rebuilds from a snapshot. */
  private async check(seq: number, expected: string, serverState: View | null): Promise<void> {
    const t = this.timeline.value;
    if (!t) return;
    const local = await hashView(t.stateAt(seq));
    if (local === expected) {
      this.bump({ hashChecks: 1 });
      return;
    }
    this.bump({ hashChecks: 1, hashMismatches: 1, resyncs: 1 });
    this.lastMismatch.value = { seq, local, server: expected };
    const state = serverState ?? ((await fetchSnapshot(this.gameId, this.view, seq, this.abort.signal)).state as View);
    const refusedAt = t.restartAt(seq, state);
    if (refusedAt !== null) await this.refused(t, refusedAt);
    this.version.value++;
  }

  // --- playback -------------------------------------------------------------------------------

  /** Shows `seq` (clamped to what the timeline holds) and stops following the head. */
  seek(seq: number): void {
    const t = this.timeline.value;
    // While the history loads only the head can be shown: a seek elsewhere is kept and shown once
    // the history is in (and wins over the deep link's seq).
    if (this.history.value === 'loading') this.wanted = Math.max(0, Math.round(seq));
    batch(() => {
      this.cursor.value = t ? this.clamp(seq, t) : 0;
      this.following.value = false;
    });
  }

  /** The first seq the timeline can show (0, or later after a rebase; 0 while the history loads behind the head). */
  get first(): number {
    return this.history.value === 'loading' ? 0 : (this.timeline.value?.first ?? 0);
  }

  /** A seq the timeline can show: the cursor never points before its first state or past its head. */
  private clamp(seq: number, t: Timeline): number {
    return Math.max(t.first, Math.min(t.head, Math.round(seq)));
  }

  /** Back to the live head (live games). */
  goLive(): void {
    batch(() => {
      this.following.value = true;
      this.playing.value = false;
      this.cursor.value = this.head.value;
    });
    this.stopTimer();
  }

  /**
   * The game has ended while the page follows it: from now on it plays as a replay (Play at the
   * end starts over, reaching the end pauses) and no longer follows a head that cannot move.
   */
  endLive(): void {
    if (!this.live) return;
    this.live = false;
    this.following.value = false;
  }

  togglePlay(): void {
    if (this.playing.value) this.pause();
    else this.play();
  }

  play(): void {
    if (this.cursor.value >= this.head.value && !this.live) this.cursor.value = this.first;
    this.following.value = false;
    this.playing.value = true;
    this.tick();
  }

  pause(): void {
    this.playing.value = false;
    this.stopTimer();
  }

  private stopTimer(): void {
    if (this.playTimer) clearTimeout(this.playTimer);
    this.playTimer = null;
  }

  private tick(): void {
    this.stopTimer();
    if (!this.playing.value) return;
    const rate = BASE_RATE * this.speed.value;
    // Above ~60 events/s step several events a frame rather than faster than the screen.
    const stepEvents = Math.max(1, Math.round(rate / 60));
    const delay = (1000 * stepEvents) / rate;
    this.playTimer = setTimeout(() => {
      const next = Math.min(this.head.value, this.cursor.value + stepEvents);
      this.cursor.value = next;
      if (next >= this.head.value) {
        if (this.live) this.goLive();
        else this.pause();
        return;
      }
      this.tick();
    }, delay);
  }

  setSpeed(s: number): void {
    this.speed.value = s;
    if (this.playing.value) this.tick();
  }

  /** Test and debugging aid: drop the socket as a network failure would; socket.io reconnects. */
  dropConnection(): void {
    const engine = (this.socket as unknown as { io?: { engine?: { close(): void } } } | null)?.io?.engine;
    engine?.close();
  }

  close(): void {
    this.closed = true;
    this.abort.abort();
    this.stopTimer();
    if (this.raf) cancelAnimationFrame(this.raf);
    if (this.staleTimer) clearInterval(this.staleTimer);
    this.socket?.close();
  }
}
