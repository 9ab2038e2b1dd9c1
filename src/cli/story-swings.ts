import { initialState, viewEvent, viewState, type Viewer } from '../game/index.js';
import { winCurve } from '../eval/curve.js';
import { swings, type Swing } from '../eval/win-report.js';
import type { GameEvent } from '../protocol/index.js';
import { pct } from './format.js';

/** A seat's chance moving this much (15 points) on one event is worth a word in the story. */
export const BIG_SWING = 0.15;

/**
 * The big swings of a game's log, by the seq of the event that made them, largest first. The CLI
 * reads every log as an admin does, so a game that has ended is judged by the omniscient model
 * (every hand and feeling); one still running by the public one, as its spectators would see it
 * (a researcher's view: public until the end, everything after). No log with a start: none.
 *
 * @example storySwings(events).get(412) // [{ seq: 412, round: 9, player_id: 'plr_2', from: 0.22, to: 0.61 }]
 */
export function storySwings(events: readonly GameEvent[], min = BIG_SWING): Map<number, Swing[]> {
  const start = events.find((e) => e.type === 'game_started');
  if (start?.type !== 'game_started') return new Map();
  const over = events.some((e) => e.type === 'game_ended');
  const viewer: Viewer = { role: 'researcher' };
  // The table before the deal: game_started fills in the seats, rules and deck.
  const base = viewState(initialState({ seats: start.payload.players.length, rules: start.payload.rules }, start.payload.seed ?? 0), viewer, over);
  const curve = winCurve({ seq: 0, view: base }, events.map((e) => viewEvent(e, viewer, over)), viewer, over);
  const out = new Map<number, Swing[]>();
  for (const s of swings(curve.points, min)) out.set(s.seq, [...(out.get(s.seq) ?? []), s]);
  return out;
}

/** "(Ada's chance 22% → 61%; Bo's 48% → 12%)": a line's swings, by display name. */
export function swingMarker(list: readonly Swing[], name: (playerId: string) => string): string {
  return `(${list.map((s, i) => `${name(s.player_id)}'s${i === 0 ? ' chance' : ''} ${pct(s.from, 0)} → ${pct(s.to, 0)}`).join('; ')})`;
}
