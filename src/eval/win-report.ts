/**
 * A game's win-probability curve as it leaves the process (REST `GET /games/:id/win-probability`,
 * `tiltyard winprob --json`), and the swings people are shown: the moves of one seat's chance
 * between two consecutive points of a curve. Pure: the curve in, the report out.
 */
import type { Curve, CurvePoint } from './curve.js';

/** `GET /games/:id/win-probability`'s body; `view` is the projection the curve was folded from. */
export type WinReport = {
  game_id: string;
  model: string;
  /** spectator, broadcast, researcher, admin or plr_N. */
  view: string;
  form: Curve['form'];
  /** The last seq this view may see: the curve says nothing past it. */
  last_seq: number;
  points: CurvePoint[];
};

/** @example winReport('game_ab12', 'spectator', 212, winCurve(base, events, viewer, false, { changesOnly: true })) */
export function winReport(gameId: string, view: string, lastSeq: number, curve: Curve): WinReport {
  return { game_id: gameId, model: curve.model, view, form: curve.form, last_seq: lastSeq, points: curve.points };
}

/** One seat's chance moving between two consecutive points: `seq` and `round` are where it landed. */
export type Swing = { seq: number; round: number; player_id: string; from: number; to: number };

/**
 * Every move of at least `min` (as a fraction: 0.15 is 15 points) of any seat's chance from one
 * point to the next, largest first (ties: earlier first, then by player id). A seat absent from the earlier point
 * counts as 0 there; the first point has nothing to move from.
 *
 * @example swings(curve.points, 0.15)[0] // { seq: 88, round: 4, player_id: 'plr_2', from: 0.22, to: 0.61 }
 */
export function swings(points: readonly CurvePoint[], min: number): Swing[] {
  const out: Swing[] = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    for (const [id, to] of Object.entries(b.p)) {
      const from = a.p[id] ?? 0;
      // A hair under `min` from rounding to 6 places still counts: the chances were rounded, the swing was not.
      if (Math.abs(to - from) >= min - 1e-9) out.push({ seq: b.seq, round: b.round, player_id: id, from, to });
    }
  }
  // Sizes compared to 1e-9, so a float's last bit does not reorder a swing and its mirror.
  const size = (s: Swing) => Math.round(Math.abs(s.to - s.from) * 1e9);
  return out.sort((x, y) => size(y) - size(x) || x.seq - y.seq || x.player_id.localeCompare(y.player_id));
}
