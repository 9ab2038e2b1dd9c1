/**
 * The largest swings of a win-probability curve, as key moments (lichess marks blunders from
 * drops in winning chances): each names the event that moved a seat's chance most and how far,
 * "Ada's Strip hits Bo: Bo 40 % → 12 %". Pure: a function of the curve and the viewer's events.
 */
import { happened } from '../view/jump-label.js';
import { pct } from './chance-words.js';
import { swings } from './win-report.js';
import type { CurvePoint } from './curve.js';
import type { WinPoint } from './win-track.js';

/** One key swing: at `seq`, `player_id`'s chance went from `from` to `to`, and what did it in words. */
export type KeySwing = { seq: number; player_id: string; from: number; to: number; title: string };

type EventLike = { turn: number; type: string; payload: unknown };

/** Below this a move in one event is noise, not a moment (five points of chance). */
export const SWING_FLOOR = 0.05;

/**
 * The `n` events that moved some seat's chance most (the shared `swings`, at least `floor`), in
 * seq order. The end of the game is left out: game_ended turning the winner's chance into 1 is the
 * result, not a swing. Each event counts once, for the seat it moved most.
 *
 * @example biggestSwings(track.points, (s) => timeline.event(s), (id) => names.get(id) ?? 'a seat')
 * // [{ seq: 812, player_id: 'plr_2', from: 0.4, to: 0.12, title: "Ada's Strip hits Bo: Bo 40 % → 12 %" }]
 */
export function biggestSwings(points: readonly WinPoint[], eventAt: (seq: number) => EventLike | undefined, seat: (id: string) => string, o: { n?: number; floor?: number } = {}): KeySwing[] {
  const dealt = points.filter((p): p is CurvePoint => p.p !== null);
  const seen = new Set<number>();
  const picked: KeySwing[] = [];
  // Largest first: the first swing of an event is its largest.
  for (const s of swings(dealt, o.floor ?? SWING_FLOOR)) {
    if (picked.length === (o.n ?? 5)) break;
    if (seen.has(s.seq)) continue;
    seen.add(s.seq);
    const e = eventAt(s.seq);
    if (e?.type === 'game_ended') continue;
    const cause = e ? `${happened(e, seat)}: ` : '';
    picked.push({ seq: s.seq, player_id: s.player_id, from: s.from, to: s.to, title: `${cause}${seat(s.player_id)} ${pct(s.from)} → ${pct(s.to)}` });
  }
  return picked.sort((a, b) => a.seq - b.seq);
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
