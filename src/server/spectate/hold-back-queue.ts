import { releasedRound, type HoldBack } from '../../live/hold-back.js';

/**
 * The delayed channel's side of the hold-back (src/live/hold-back.ts), in memory: told each event
 * as it commits (in seq order) and when each step's time rule lets it go, it says how far the
 * delayed channel may go at a time, and when to look again. REST applies the same two rules to
 * the stored log (games/spectator-delay.ts).
 *
 * @example
 * const q = new HoldBackQueue({ delayMs: 0, until: 'next_round_end' });
 * q.event(1, 0, 'game_started'); q.due(1, t0); q.event(2, 1, 'phase_changed'); q.due(2, t0);
 * q.head(t0, 0) // 0: round 0 waits until round 1 has ended (an event of round 2 is in)
 */
export class HoldBackQueue {
  /** The last seq of each step not yet released, and when the time rule lets it go (ms). */
  private pending: { seq: number; due: number }[] = [];
  /** The first seq of each round seen after the released head (rounds only grow). */
  private rounds: { turn: number; first: number }[] = [];
  private lastSeq = 0;
  private lastTurn = 0;
  private ended = false;

  constructor(readonly hold: HoldBack) {}

  /** One committed event, in seq order. */
  event(seq: number, turn: number, type: string): void {
    if (this.lastSeq === 0 || turn > this.lastTurn) this.rounds.push({ turn, first: seq });
    this.lastSeq = seq;
    this.lastTurn = turn;
    if (type === 'game_ended') this.ended = true;
  }

  /** The step ending at `lastSeq` may be shown from `at` (ms) by the time rule: its commit plus the delay. */
  due(lastSeq: number, at: number): void {
    this.pending.push({ seq: lastSeq, due: at });
  }

  /** The last seq the round rule lets go: the event before the first of a round it still holds. */
  private roundHead(): number {
    const released = releasedRound(this.hold, this.lastTurn, this.ended);
    return (this.rounds.find((r) => r.turn > released)?.first ?? this.lastSeq + 1) - 1;
  }

  /**
   * How far the delayed channel may go at `now`, from `released`: the smaller of the time rule's
   * cut (the last step whose due time has come, in commit order) and the round rule's. Forgets
   * what it releases.
   */
  head(now: number, released: number): number {
    let byTime = released;
    for (const p of this.pending) {
      if (p.due > now) break;
      byTime = p.seq;
    }
    const to = Math.max(released, Math.min(byTime, this.roundHead()));
    this.forget(to);
    return to;
  }

  /**
   * When the time rule lets the next step go (ms; it may have passed already: look again at once),
   * or null when waiting on the clock cannot show more: nothing is pending, or the round rule holds
   * everything after `released` (the next commit looks again).
   */
  nextDue(released: number): number | null {
    if (this.roundHead() <= released) return null;
    // The first step still held, even when its time has come: it may have come due after `head`
    // looked (while the caller sent what that released), and the time rule cuts in commit order,
    // so no later step goes before it. Asking for the first one due after now skipped it, and for
    // a game's last step nothing came after: its delayed audience never got the end.
    return this.pending[0]?.due ?? null;
  }

  /**
   * Forgets released steps, and rounds that began at or before `to`: `to` is within the round
   * rule's cut, so each of those rounds is one the rule already lets go, and it only lets go more.
   */
  private forget(to: number): void {
    this.pending = this.pending.filter((p) => p.seq > to);
    this.rounds = this.rounds.filter((r) => r.first > to);
  }
}
