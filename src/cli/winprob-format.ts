import { swings, type WinReport } from '../eval/win-report.js';
import type { GameEvent } from '../protocol/index.js';
import { pct, table } from './format.js';

/** How many swings the table lists, and the smallest it lists. */
const TOP_SWINGS = 5;
const MIN_SWING = 0.05;

/**
 * `tiltyard winprob`'s table: each seat's chance (by display name) at the end of every round,
 * then the biggest swings with the event that made each one.
 *
 * @example formatWinProbability(report, events).split('\n')[0] // 'Win probability of game_ab12 · public model (winprob-…) · view spectator'
 */
export function formatWinProbability(report: WinReport, events: readonly GameEvent[]): string {
  const names = displayNames(events);
  const ids = [...names.keys()];
  const name = (id: string) => names.get(id) ?? id;
  const head = `Win probability of ${report.game_id} · ${report.form} model (${report.model}) · view ${report.view} · up to event ${report.last_seq}`;
  if (report.points.length === 0) return `${head}\n  (no seat has been dealt in yet)\n`;
  // The last point of each round: where the round left every seat.
  const byRound = new Map(report.points.map((pt) => [pt.round, pt]));
  const rows = [['round', 'event', ...ids.map(name)], ...[...byRound.values()].map((pt) => [String(pt.round), String(pt.seq), ...ids.map((id) => pct(pt.p[id] ?? 0, 0))])];
  const out = [head, ...table(rows, 1).map((l) => `  ${l}`)];
  const top = swings(report.points, MIN_SWING).slice(0, TOP_SWINGS);
  if (top.length) {
    const typeAt = new Map(events.map((e) => [e.seq, e.type.replace(/_/g, ' ')]));
    out.push('', 'Biggest swings', ...table(top.map((s) => [`round ${s.round}`, `event ${s.seq}`, `${name(s.player_id)} ${pct(s.from, 0)} → ${pct(s.to, 0)}`, typeAt.get(s.seq) ?? '']), 4).map((l) => `  ${l}`));
  }
  return `${out.join('\n')}\n`;
}

/** Seats by player id with their display names, from the game's `game_started` event (in seat order). */
export function displayNames(events: readonly GameEvent[]): Map<string, string> {
  const start = events.find((e) => e.type === 'game_started');
  return new Map(start?.type === 'game_started' ? start.payload.players.map((s) => [s.player_id, s.display_name]) : []);
}
