import type { StateView, Viewer } from '../../game/index.js';
import type { GameEvent, Placement } from '../../protocol/index.js';
import { formFor, rounded } from '../../eval/curve.js';
import { MODEL, winChances } from '../../eval/model.js';
import { foldView } from '../../view/fold-view.js';
import type { Channel, Snapshot } from './feed-types.js';
import type { ServerMessages } from './messages.js';
import { viewKey, type LogEntry } from './recent-log.js';

export type WinEstimate = ServerMessages['win_probability'];

/** A room of a feed: one view on one channel, whose members all get the same estimate. */
export type EstimateRoom = { view: string; viewer: Viewer; emit(message: WinEstimate): void };

/** What the estimates read of their game's feed. */
export type EstimateSource = {
  gameId: string;
  closed(): boolean;
  /** Whether the game is over (a researcher's view, and the form, change then). */
  ended(): boolean;
  /** The last seq a channel has released: everything up to it has been sent to its rooms. */
  head(channel: Channel): number;
  /** The feed's in-memory entries in (afterSeq, toSeq], or null when it no longer holds them. */
  between(afterSeq: number, toSeq: number): LogEntry[] | null;
  project(entry: LogEntry, view: string, viewer: Viewer): GameEvent;
  snapshot(seq: number, view: string, viewer: Viewer): Promise<Snapshot>;
  /** The placements of a game that ended at `seq` (its `game_ended` event's), for a view rebuilt after the end. */
  placementsAt(seq: number): Promise<Placement[] | null>;
  rooms(channel: Channel): Iterable<EstimateRoom>;
  warn(message: string): void;
};

/** One view's position on one channel, folded from the events that channel released to it. */
type Tracker = { seq: number; view: StateView; placements: Placement[] | null; latest: WinEstimate | null };

/**
 * Each room's current win probability (src/eval), sent as a `win_probability` message after the
 * events of each step the room is sent. Computed once per room (one view on one channel), never
 * per socket, and never inside the commit: the feed calls `after` once it has sent a step and
 * the work runs on a later turn of the event loop (setImmediate), so the game loop is not kept
 * waiting. Each room's position is folded from that room's own projected events, up to the head
 * its channel has released (a delayed audience's estimate is as late as its events), so an
 * estimate can never know what its events do not.
 */
export class WinEstimates {
  private readonly trackers = new Map<string, Tracker>();
  private readonly pending = new Set<Channel>();
  private scheduled = false;
  private running: Promise<void> | null = null;

  constructor(private readonly source: EstimateSource) {}

  /** A channel released a step: its rooms get a fresh estimate soon. */
  after(channel: Channel): void {
    this.pending.add(channel);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.run();
    });
  }

  /**
   * A member joined its room, holding everything up to its channel's head: it gets the estimate
   * there at once if the room has it, else the room gets one soon.
   */
  joined(channel: Channel, view: string, send: (message: WinEstimate) => void): void {
    const latest = this.trackers.get(this.key(channel, view))?.latest;
    if (latest && latest.seq === this.source.head(channel)) send(latest);
    else this.after(channel);
  }

  private key(channel: Channel, view: string): string {
    return `${channel}|${viewKey(view, this.source.ended())}`;
  }

  private async run(): Promise<void> {
    // One pass at a time: a pass that awaits a snapshot must not race another over the trackers.
    while (this.running) await this.running;
    if (this.pending.size === 0) return;
    this.running = this.pass().finally(() => (this.running = null));
    await this.running;
  }

  private async pass(): Promise<void> {
    while (this.pending.size > 0 && !this.source.closed()) {
      const [channel] = this.pending;
      this.pending.delete(channel!);
      for (const room of [...this.source.rooms(channel!)]) {
        try {
          await this.update(channel!, room);
        } catch (e) {
          this.source.warn(`spectate: no win probability for ${room.view}: ${(e as Error).message}`);
        }
      }
    }
  }

  /** Brings a room's tracker to its channel's head and sends the estimate there if it is new. */
  private async update(channel: Channel, room: EstimateRoom): Promise<void> {
    const key = this.key(channel, room.view);
    let t = this.trackers.get(key);
    if (!t || this.source.between(t.seq, this.source.head(channel)) === null) t = await this.rebuild(key, channel, room);
    if (this.source.closed() || this.trackers.get(key) !== t) return;
    // From here on nothing awaits: the head read now is what the room has been sent.
    const head = this.source.head(channel);
    if (t.seq < head) {
      const entries = this.source.between(t.seq, head);
      if (!entries) return this.after(channel);
      const ended = this.source.ended();
      for (const entry of entries) {
        const e = this.source.project(entry, room.view, room.viewer);
        t.view = foldView(t.view, e, room.viewer, ended);
        if (e.type === 'game_ended') t.placements = (e.payload as { placements: Placement[] }).placements;
        t.seq = e.seq;
      }
    }
    if (t.latest?.seq === t.seq || t.view.world.players.length === 0) return;
    const ended = this.source.ended();
    const form = formFor(room.viewer, ended);
    t.latest = { game_id: this.source.gameId, seq: t.seq, view: room.view, model: MODEL.version, form, p: rounded(winChances(t.view, form, t.placements)) };
    room.emit(t.latest);
  }

  /** A tracker from the room's projected state at its channel's head (the store's snapshot). */
  private async rebuild(key: string, channel: Channel, room: EstimateRoom): Promise<Tracker> {
    const seq = this.source.head(channel);
    const snap = await this.source.snapshot(seq, room.view, room.viewer);
    const placements = snap.state.world.status === 'done' ? await this.source.placementsAt(seq) : null;
    const t: Tracker = { seq, view: snap.state, placements, latest: null };
    this.trackers.set(key, t);
    return t;
  }
}
