/**
 * A game's win-probability curve: each seat's chance after every event a viewer may see, folded
 * from that viewer's projected events with the shared view reducer. Which model a viewer gets
 * follows what its view holds: every seat's private view (admins, the broadcast, researchers once
 * the game is over) gets the omniscient one; anyone else the public one, read off the public table
 * alone. Never part of the hash chain: a pure function of the events, recomputed on demand.
 */
import type { GameEvent, Placement } from '../protocol/index.js';
import type { StateView, Viewer } from '../game/views.js';
import { foldView } from '../view/fold-view.js';
import { MODEL, winChances, type Chances } from './model.js';
import type { Form } from './features.js';

export type CurvePoint = { seq: number; round: number; p: Chances };

export type Curve = { model: string; form: Exclude<Form, 'baseline'>; points: CurvePoint[] };

/** The model a viewer is entitled to. */
export function formFor(viewer: Viewer, gameOver: boolean): Exclude<Form, 'baseline'> {
  return viewer.role === 'admin' || viewer.role === 'broadcast' || (viewer.role === 'researcher' && gameOver) ? 'omniscient' : 'public';
}

const placementsOf = (e: GameEvent): Placement[] | null => (e.type === 'game_ended' ? (e.payload as { placements: Placement[] }).placements : null);

/**
 * Folds `events` (projected for `viewer`, in seq order, starting right after `base`) and returns a
 * point after each one. `changesOnly` keeps a point only where some seat's chance moved by more
 * than 1e-4 (plus the first and the last): the graph is a step line, so nothing is lost.
 *
 * @example winCurve({ seq: 0, view: viewState(initial, viewer) }, events, viewer, true).points.at(-1)
 */
export function winCurve(base: { seq: number; view: StateView }, events: readonly GameEvent[], viewer: Viewer, gameOver: boolean, o: { changesOnly?: boolean; form?: Exclude<Form, 'baseline'> } = {}): Curve {
  const form = o.form ?? formFor(viewer, gameOver);
  const points: CurvePoint[] = [];
  let view = base.view;
  let ended: Placement[] | null = null;
  for (const [i, e] of events.entries()) {
    view = foldView(view, e, viewer, gameOver);
    ended = placementsOf(e) ?? ended;
    if (view.world.players.length === 0) continue;
    const p = winChances(view, form, ended);
    const last = points.at(-1);
    const moved = !last || Object.keys(p).some((id) => Math.abs(p[id]! - (last.p[id] ?? 0)) > 1e-4);
    if (!o.changesOnly || moved || i === events.length - 1) points.push({ seq: e.seq, round: e.turn, p: rounded(p) });
  }
  return { model: MODEL.version, form, points };
}

/**
 * Chances rounded to 6 places with the rounding error put on the largest, so a point still sums
 * to 1 (within 1e-9) and the JSON stays short.
 */
export function rounded(p: Chances): Chances {
  const ids = Object.keys(p);
  const out: Chances = {};
  let sum = 0;
  let top = ids[0]!;
  for (const id of ids) {
    out[id] = Math.round(p[id]! * 1e6) / 1e6;
    sum += out[id];
    if (p[id]! > p[top]!) top = id;
  }
  if (ids.length) out[top] = Math.round((out[top]! + 1 - sum) * 1e6) / 1e6;
  return out;
}
