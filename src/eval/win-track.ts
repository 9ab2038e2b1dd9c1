/**
 * A game's win-probability curve kept as the game is folded: the visualizer already folds every
 * projected event once (its timeline), so it hands each folded view here rather than folding the
 * history a second time for `winCurve`. Browser-safe: model and features only, no training code.
 */
import type { GameEvent, Placement } from '../protocol/index.js';
import type { StateView, Viewer } from '../game/views.js';
import { winChances, type Chances } from './model.js';
import { formFor, rounded } from './curve.js';

/** Each seat's chance after one event; null while the table has no seats yet (before the deal). */
export type WinPoint = { seq: number; round: number; p: Chances | null };

/**
 * One point per event after `base`, in seq order, with the same numbers `winCurve` gives for the
 * same events (rounded alike).
 *
 * @example
 * const t = new WinTrack({ role: 'spectator' }, false, 0);
 * t.push(event, timeline.append(event));
 * t.at(1234)?.p // { plr_1: 0.61, plr_2: 0.22, … }
 */
export class WinTrack {
  readonly form: 'public' | 'omniscient';
  private list: WinPoint[] = [];
  /** The game_ended placements and their seq: an ended game gives its winners everything. */
  private ended: { seq: number; placements: Placement[] } | null = null;

  constructor(
    viewer: Viewer,
    gameOver: boolean,
    private readonly base: number,
  ) {
    this.form = formFor(viewer, gameOver);
  }

  /**
   * Sets the point after `e` from the view folded through it, and drops any points after it: a
   * timeline that refolds from a server snapshot at some seq sets that seq again and goes on.
   */
  push(e: GameEvent, view: StateView): void {
    const i = e.seq - this.base - 1;
    if (i < 0 || i > this.list.length) throw new RangeError(`win track at seq ${this.base + this.list.length} cannot take event ${e.seq}`);
    this.list.length = i;
    if (this.ended && this.ended.seq >= e.seq) this.ended = null;
    if (e.type === 'game_ended') this.ended = { seq: e.seq, placements: (e.payload as { placements: Placement[] }).placements };
    const p = view.world.players.length === 0 ? null : rounded(winChances(view, this.form, this.ended?.placements));
    this.list.push({ seq: e.seq, round: e.turn, p });
  }

  /** The point after `seq`, or null when the track does not reach it (or it is the base). */
  at(seq: number): WinPoint | null {
    return this.list[seq - this.base - 1] ?? null;
  }

  /** Every point, in seq order (the graph's data and the swings' input). */
  get points(): readonly WinPoint[] {
    return this.list;
  }
}
