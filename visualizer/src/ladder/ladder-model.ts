import type { Ladder, LadderGame, RatingPoint } from './ladder-types.js';

/**
 * What the ladder page shows, computed from GET /ladders/:id alone: no DOM, no fetch, so it is
 * unit-tested headless (test/visualizer/ladder-model.unit.spec.ts) and the components only draw it.
 */

/** The chart's own units: x 0…1000 across the deals, y 0…100 from the top (stretched to the box). */
export const PLOT_W = 1000;
export const PLOT_H = 100;

/** A leaderboard row: the rating with its 95 % interval as text and as a bar on the shared axis (percent of its width). */
export type LeaderRow = {
  rank: number;
  agent: string;
  mu: number;
  games: number;
  wins: number;
  newcomer: boolean;
  status: 'active' | 'retired' | 'suspended';
  rating: string;
  /** Null before the entrant's first counted game (no interval yet): only the dot is drawn. */
  bar: { from: number; to: number } | null;
  dot: number;
  /** Whose interval overlaps this row's neighbour's: the two are not told apart yet. */
  overlapsNext: boolean;
};

export type Axis = { lo: number; hi: number; ticks: { value: number; at: number }[] };

/** One entrant's rating after each done deal, as an SVG path in plot units, and where it ends. */
export type Series = { agent: string; index: number; d: string; end: { x: number; y: number } };
export type Chart = { first: number; last: number; lo: number; hi: number; series: Series[] };

export type GameRow = { game_id: string; deal: number; live: boolean; badge: string; seats: string };

export type LadderModel = {
  summary: string;
  rows: LeaderRow[];
  axis: Axis;
  chart: Chart | null;
  games: GameRow[];
  /** Retired and suspended entrants, each in one sentence. */
  absent: { agent: string; status: 'retired' | 'suspended'; sentence: string }[];
};

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
const ordinal = (n: number): string => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
const round1 = (x: number): number => Math.round(x * 10) / 10;

/** A range padded to round numbers, with a tick every `step` (5 or 10 rating points), so bars and chart share a readable scale. */
export function niceAxis(values: readonly number[]): Axis {
  const finite = values.filter(Number.isFinite);
  let lo = finite.length ? Math.min(...finite) : 0;
  let hi = finite.length ? Math.max(...finite) : 50;
  if (hi - lo < 1) [lo, hi] = [lo - 5, hi + 5];
  const step = hi - lo > 40 ? 10 : 5;
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: Axis['ticks'] = [];
  for (let v = lo; v <= hi + 1e-9; v += step) ticks.push({ value: v, at: round1(((v - lo) / (hi - lo)) * 100) });
  return { lo, hi, ticks };
}

const at = (axis: Axis, v: number): number => round1(Math.max(0, Math.min(100, ((v - axis.lo) / (axis.hi - axis.lo)) * 100)));

/** Each entrant's rating over the deals, one path per entrant in leaderboard order; null before any deal is done. */
export function ratingChart(history: readonly RatingPoint[], order: readonly string[]): Chart | null {
  if (history.length === 0) return null;
  const deals = history.map((p) => p.deal);
  const [first, last] = [Math.min(...deals), Math.max(...deals)];
  const { lo, hi } = niceAxis(history.map((p) => p.mu));
  const x = (deal: number) => round1(last === first ? PLOT_W / 2 : ((deal - first) / (last - first)) * PLOT_W);
  const y = (mu: number) => round1((1 - (mu - lo) / (hi - lo)) * PLOT_H);
  const agents = [...order, ...[...new Set(history.map((p) => p.agent))].filter((a) => !order.includes(a)).sort()];
  const series: Series[] = [];
  agents.forEach((agent, index) => {
    const pts = history.filter((p) => p.agent === agent).sort((a, b) => a.deal - b.deal);
    if (!pts.length) return;
    const d = pts.map((p, i) => `${i ? 'L' : 'M'}${x(p.deal)} ${y(p.mu)}`).join('');
    const end = pts[pts.length - 1]!;
    series.push({ agent, index, d, end: { x: x(end.deal), y: y(end.mu) } });
  });
  return { first, last, lo, hi, series };
}

const BADGE: Record<string, string> = { running: 'LIVE', created: 'queued', ended: 'ended', aborted: 'aborted', failed: 'failed' };

/** A recent game's row: its deal (counted from 1), LIVE while played, and the seats with their places once it ended. */
export function gameRow(g: LadderGame): GameRow {
  const seats = g.seats.map((s, i) => (g.placements ? `${s} ${ordinal(g.placements[i] ?? 0)}` : s)).join(' · ');
  return { game_id: g.game_id, deal: g.deal + 1, live: g.status === 'running', badge: BADGE[g.status] ?? g.status, seats };
}

/** The sentence for an entrant no longer seated. */
function absentSentence(agent: string, status: 'retired' | 'suspended', cause: string | null): string {
  const why = cause ? cause.trim().replace(/[.\s]+$/, '') : null;
  if (status === 'retired') return `${agent} was retired from the ladder${why ? `: ${why}` : ''}. Its games still count in everyone's ratings.`;
  return `${agent} is suspended${why ? `: ${why}` : ' (no cause was recorded)'}. It is not seated until an admin re-admits it; its games still count in everyone's ratings.`;
}

/** Everything the page draws, from the ladder as GET /ladders/:id sends it. */
export function ladderModel(l: Ladder): LadderModel {
  const entrant = new Map(l.entrants.map((e) => [e.agent, e]));
  const values = l.standings.flatMap((s) => (s.rating_ci ? [s.rating_ci.low, s.rating_ci.high, s.mu] : [s.mu]));
  const axis = niceAxis(values);
  const rows: LeaderRow[] = l.standings.map((s, i) => {
    const e = entrant.get(s.agent);
    const next = l.standings[i + 1];
    return {
      rank: i + 1,
      agent: s.agent,
      mu: s.mu,
      games: s.games,
      wins: s.wins,
      newcomer: e?.newcomer ?? false,
      status: e?.status ?? 'active',
      rating: s.rating_ci ? `${s.mu.toFixed(1)} [${s.rating_ci.low.toFixed(1)}, ${s.rating_ci.high.toFixed(1)}]` : `${s.mu.toFixed(1)} (no games yet)`,
      bar: s.rating_ci ? { from: at(axis, s.rating_ci.low), to: at(axis, s.rating_ci.high) } : null,
      dot: at(axis, s.mu),
      overlapsNext: !!(next && s.rating_ci && next.rating_ci && next.rating_ci.high >= s.rating_ci.low),
    };
  });
  const absent = l.entrants.filter((e) => e.status !== 'active').map((e) => ({ agent: e.agent, status: e.status as 'retired' | 'suspended', sentence: absentSentence(e.agent, e.status as 'retired' | 'suspended', e.cause) }));
  const active = l.entrants.filter((e) => e.status === 'active').length;
  const newcomers = l.entrants.filter((e) => e.newcomer).length;
  const playing = l.deals - l.deals_done;
  const summary =
    `${plural(active, 'active entrant')} at ${l.seats} seats a table${l.compact ? ' (compact windows)' : ''}: ${plural(l.deals_done, 'deal')} done, ${plural(l.games, 'game')} counted` +
    (playing > 0 ? `, ${plural(playing, 'deal')} being played` : '') +
    (newcomers > 0 ? `; ${plural(newcomers, 'newcomer')} still being placed` : '') +
    '.';
  return { summary, rows, axis, chart: ratingChart(l.history, l.standings.map((s) => s.agent)), games: l.recent_games.map(gameRow), absent };
}
