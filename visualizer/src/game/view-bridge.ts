/**
 * The visualizer's one door to the shared view code (src/view): the reducer, its checkpoints, the
 * hash and the panel models come from there, never from a copy of the rules in the client.
 */
import { ViewTimeline, stateHash, type GameEvent, type StateView, type Viewer } from '../../../src/view/index.js';
import { WinTrack } from '../../../src/eval/win-track.js';
import type { WireEvent } from './history.js';

export type View = StateView;
export type { GameEvent, Viewer };

/** The viewer a `?view=` value stands for. */
export function viewerOf(view: string): Viewer {
  if (view === 'spectator' || view === 'broadcast' || view === 'researcher' || view === 'admin') return { role: view };
  return { role: 'seat', player_id: view };
}

const asEvent = (e: WireEvent): GameEvent => e as unknown as GameEvent;

/**
 * One viewer's projected game: the shared ViewTimeline (folded checkpoints, so a seek is one
 * checkpoint plus a bounded fold), plus what the player needs around it. When the shared reducer
 * cannot fold an event, or its hash drifts, the player takes the server's snapshot there and a new
 * segment starts from it; earlier seqs stay in their own segment, so scrubbing back still works.
 */
export class Timeline {
  private segments: ViewTimeline[];
  private list: WireEvent[] = [];
  private base: number;
  /**
   * Each seat's chance to win after every event held, computed from the view each fold already
   * makes (no second fold of the history), with the model this viewer is entitled to.
   */
  wins: WinTrack;

  constructor(
    base: View,
    baseSeq: number,
    private readonly viewer: Viewer,
    private readonly gameOver: boolean,
  ) {
    this.base = baseSeq;
    this.segments = [this.segment(baseSeq, base)];
    this.wins = new WinTrack(viewer, gameOver, baseSeq);
  }

  private segment(seq: number, view: View): ViewTimeline {
    return new ViewTimeline({ viewer: this.viewer, gameOver: this.gameOver, base: { seq, view } });
  }

  get head(): number {
    return this.base + this.list.length;
  }

  get first(): number {
    return this.base;
  }

  /**
   * Folds the next event (seq head + 1; anything else throws: the player checks first). Returns
   * false when the shared reducer refused it: the caller must `restartAt(e.seq, serverState)`.
   */
  append(e: WireEvent): boolean {
    const seg = this.segments.at(-1)!;
    this.list.push(e);
    try {
      this.wins.push(asEvent(e), seg.append(asEvent(e)));
      return true;
    } catch {
      return false;
    }
  }

  /** The view after `seq`, clamped to what the timeline holds. */
  stateAt(seq: number): View {
    const s = Math.max(this.first, Math.min(this.head, seq));
    for (let i = this.segments.length - 1; i >= 0; i--) {
      const seg = this.segments[i]!;
      if (seg.first <= s) return seg.seekTo(Math.min(s, seg.head));
    }
    return this.segments[0]!.seekTo(this.segments[0]!.first);
  }

  /** The event with this seq, if held. */
  event(seq: number): WireEvent | undefined {
    return this.list[seq - this.first - 1];
  }

  /** The events with from < seq ≤ to. */
  slice(from: number, to: number): WireEvent[] {
    return this.list.slice(Math.max(0, from - this.first), Math.max(0, to - this.first));
  }

  /**
   * Takes the server's state at `seq` as the truth (a refused fold, a hash mismatch) and refolds
   * what came after it in a new segment. Returns false if a later event is refused too (the
   * player then restarts there in turn).
   */
  restartAt(seq: number, state: View): number | null {
    const seg = this.segment(seq, state);
    this.segments = this.segments.filter((x) => x.first < seq);
    this.segments.push(seg);
    // The point at seq itself is the server's state's; an event refused there never got one.
    const at = this.event(seq);
    if (at) this.wins.push(asEvent(at), state);
    for (const e of this.list.slice(Math.max(0, seq - this.first))) {
      try {
        this.wins.push(asEvent(e), seg.append(asEvent(e)));
      } catch {
        return e.seq;
      }
    }
    return null;
  }

  /** Starts over from a server state past what it holds (the client fell too far behind). */
  rebase(seq: number, state: View): void {
    this.base = seq;
    this.list = [];
    this.segments = [this.segment(seq, state)];
    this.wins = new WinTrack(this.viewer, this.gameOver, seq);
  }

  /** How many times the timeline had to restart from a server state. */
  get restarts(): number {
    return this.segments.length - 1;
  }
}

/** The server's state_hash of a view. */
export const hashView = (view: View): Promise<string> => stateHash(view);
