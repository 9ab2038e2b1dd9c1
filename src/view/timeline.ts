import type { GameEvent } from '../protocol/index.js';
import type { StateView, Viewer } from '../game/views.js';
import { foldEvents, foldView } from './fold-view.js';

export type TimelineOptions = {
  viewer: Viewer;
  gameOver?: boolean;
  /** A folded checkpoint is kept every this many events (default 50): a seek folds at most every − 1 events. */
  every?: number;
  /** Where the timeline starts: a snapshot (`viewState` at `seq`, as the server sent it). */
  base: { seq: number; view: StateView };
};

/**
 * One viewer's game as a list of projected events after a snapshot, with folded checkpoints every
 * N events, so seeking anywhere costs one checkpoint lookup plus at most N − 1 folds, however
 * long the game. `folds` counts every foldView call (what tests and benchmarks measure).
 *
 * @example
 * const t = new ViewTimeline({ viewer: { role: 'spectator' }, base: { seq: 0, view: snapshot } });
 * for (const e of events) t.append(e);
 * t.seekTo(1234); // the view after seq 1234
 */
export class ViewTimeline {
  folds = 0;
  readonly every: number;
  private readonly viewer: Viewer;
  private readonly gameOver: boolean;
  private baseSeq: number;
  private log: GameEvent[] = [];
  /** Checkpoint k holds the view at baseSeq + k × every. */
  private checkpoints: StateView[] = [];
  private headView: StateView;

  constructor(o: TimelineOptions) {
    this.viewer = o.viewer;
    this.gameOver = o.gameOver ?? false;
    this.every = o.every ?? 50;
    if (!Number.isInteger(this.every) || this.every < 1) throw new RangeError(`checkpoint interval must be a positive integer, got ${this.every}`);
    this.baseSeq = o.base.seq;
    this.headView = o.base.view;
    this.checkpoints = [o.base.view];
  }

  /** The first seq this timeline can show (its snapshot's). */
  get first(): number {
    return this.baseSeq;
  }

  /** The last seq folded. */
  get head(): number {
    return this.baseSeq + this.log.length;
  }

  /** The view at the head. */
  get view(): StateView {
    return this.headView;
  }

  /** Folds the next event; it must be seq head + 1 (a gap or a repeat is the caller's bug: resync instead). */
  append(event: GameEvent): StateView {
    if (event.seq !== this.head + 1) throw new RangeError(`timeline at seq ${this.head} cannot take event ${event.seq}`);
    this.headView = this.fold(this.headView, event);
    this.log.push(event);
    if (this.log.length % this.every === 0) this.checkpoints.push(this.headView);
    return this.headView;
  }

  /** The view after `seq` (first ≤ seq ≤ head). */
  seekTo(seq: number): StateView {
    if (!Number.isInteger(seq) || seq < this.baseSeq || seq > this.head) throw new RangeError(`seq ${seq} is outside ${this.baseSeq}…${this.head}`);
    if (seq === this.head) return this.headView;
    const k = Math.floor((seq - this.baseSeq) / this.every);
    const from = k * this.every;
    const events = this.log.slice(from, seq - this.baseSeq);
    this.folds += events.length;
    return foldEvents(this.checkpoints[k]!, events, this.viewer, this.gameOver);
  }

  /** The projected events after the snapshot up to `seq` (to the head by default), for the panels. */
  events(upTo = this.head): readonly GameEvent[] {
    return this.log.slice(0, Math.max(0, upTo - this.baseSeq));
  }

  /** Starts again from a new snapshot (after a hash mismatch or a resync). */
  reset(base: { seq: number; view: StateView }): void {
    this.baseSeq = base.seq;
    this.log = [];
    this.headView = base.view;
    this.checkpoints = [base.view];
  }

  private fold(view: StateView, event: GameEvent): StateView {
    this.folds++;
    return foldView(view, event, this.viewer, this.gameOver);
  }
}
