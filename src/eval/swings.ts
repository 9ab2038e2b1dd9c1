/**
 * The largest swings of a win-probability curve, as key moments (lichess marks blunders from
 * drops in winning chances): each names the event that moved a seat's chance most and how far,
 * "Ada's Strip hits Bo: Bo 40 % → 12 %". Pure: a function of the curve and the viewer's events.
 */
import { happened } from '../view/jump-label.js';
import { pct } from './chance-words.js';
import type { WinPoint } from './win-track.js';

/** One swing: at `seq`, `player_id`'s chance went from `from` to `to`. */
export type Swing = { seq: number; player_id: string; from: number; to: number; title: string };

type EventLike = { turn: number; type: string; payload: unknown };

/** Below this a move in one event is noise, not a moment (five points of chance). */
export const SWING_FLOOR = 0.05;

/**
 * The `n` events that moved some seat's chance most (by |Δp|, at least `floor`), in seq order.
 * The end of the game is left out: game_ended turning the winner's chance into 1 is the result,
 * not a swing. Each event counts once, for the seat it moved most; equal swings keep the earlier.
 *
 * @example biggestSwings(track.points, (s) => timeline.event(s), (id) => names.get(id) ?? 'a seat')
 * // [{ seq: 812, player_id: 'plr_2', from: 0.4, to: 0.12, title: "Ada's Strip hits Bo: Bo 40 % → 12 %" }]
 */
export function biggestSwings(points: readonly WinPoint[], eventAt: (seq: number) => EventLike | undefined, seat: (id: string) => string, o: { n?: number; floor?: number } = {}): Swing[] {
  const n = o.n ?? 5;
  const floor = o.floor ?? SWING_FLOOR;
  const found: Omit<Swing, 'title'>[] = [];
  let prev: WinPoint['p'] = null;
  for (const pt of points) {
    const p = pt.p;
    if (prev && p && eventAt(pt.seq)?.type !== 'game_ended') {
      let best: Omit<Swing, 'title'> | null = null;
      for (const [id, to] of Object.entries(p)) {
        const from = prev[id] ?? 0;
        if (Math.abs(to - from) > Math.abs(best ? best.to - best.from : 0)) best = { seq: pt.seq, player_id: id, from, to };
      }
      if (best && Math.abs(best.to - best.from) >= floor) found.push(best);
    }
    prev = p ?? prev;
  }
  const size = (s: Omit<Swing, 'title'>) => Math.abs(s.to - s.from);
  return found
    .sort((a, b) => size(b) - size(a) || a.seq - b.seq)
    .slice(0, n)
    .sort((a, b) => a.seq - b.seq)
    .map((s) => {
      const e = eventAt(s.seq);
      const cause = e ? `${happened(e, seat)}: ` : '';
      return { ...s, title: `${cause}${seat(s.player_id)} ${pct(s.from)} → ${pct(s.to)}` };
    });
}

/**
 * The story's key moments and the swings as one list of positions to step through (N / P), in seq
 * order, each seq once.
 *
 * @example keyMomentSeqs(story.moments, swings) // [{ seq: 40 }, { seq: 812 }, …]
 */
export function keyMomentSeqs(moments: readonly { seq: number }[], swings: readonly { seq: number }[]): { seq: number }[] {
  const seqs = [...new Set([...moments.map((m) => m.seq), ...swings.map((s) => s.seq)])].sort((a, b) => a - b);
  return seqs.map((seq) => ({ seq }));
}
