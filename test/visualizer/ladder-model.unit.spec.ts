/**
 * The ladder page's view model (visualizer/src/ladder/ladder-model.ts), headless: what the page
 * shows for a ladder as GET /ladders/:id sends it — bars on one shared axis, the rating chart's
 * paths, game rows, newcomers, and the entrants no longer seated in sentences.
 */
import { describe, expect, it } from 'vitest';
import type { Ladder } from '../../visualizer/src/ladder/ladder-types.js';
import { gameRow, ladderModel, niceAxis, ratingChart } from '../../visualizer/src/ladder/ladder-model.js';

const ci = (value: number, low: number, high: number) => ({ value, low, high });
const standing = (agent: string, mu: number, low: number, high: number, games = 6) => ({ agent, mu, sigma: 2, rating_ci: ci(mu, low, high), games, wins: 1, mean_placement: 2, win_rate: null, placement_ci: null });
const entrant = (agent: string, more: Partial<Ladder['entrants'][number]> = {}) => ({ agent, status: 'active' as const, cause: null, newcomer: false, games: 6, joined_at: '2026-01-01T00:00:00Z', admitted: true, max_usd_per_day: null, max_usd_total: null, ...more });

const LADDER: Ladder = {
  ladder_id: 'lad_1',
  name: 'Four',
  seats: 3,
  compact: true,
  status: 'active',
  created_at: '2026-01-01T00:00:00Z',
  deals: 3,
  deals_done: 2,
  games: 6,
  standings: [standing('balanced', 30, 25, 35), standing('aggressor', 22, 18, 26), standing('turtle', 20, 12, 24, 3), { agent: 'random', mu: 25, sigma: 8.33, rating_ci: null, games: 0, wins: 0, mean_placement: null, win_rate: null, placement_ci: null }],
  entrants: [entrant('balanced'), entrant('aggressor'), entrant('turtle', { newcomer: true, games: 3 }), entrant('random', { status: 'suspended', cause: '3 of its last 5 games failed on its account (timeouts).' })],
  history: [
    { deal: 0, agent: 'balanced', mu: 27, low: 20, high: 34, games: 3 },
    { deal: 0, agent: 'aggressor', mu: 24, low: 18, high: 30, games: 3 },
    { deal: 1, agent: 'balanced', mu: 30, low: 25, high: 35, games: 6 },
    { deal: 1, agent: 'aggressor', mu: 22, low: 18, high: 26, games: 6 },
    { deal: 1, agent: 'turtle', mu: 20, low: 12, high: 24, games: 3 },
  ],
  recent_games: [
    { game_id: 'g_live', deal: 2, seats: ['balanced', 'turtle', 'aggressor'], status: 'running', placements: null, deal_status: 'playing', ended_at: null },
    { game_id: 'g_done', deal: 1, seats: ['turtle', 'aggressor', 'balanced'], status: 'ended', placements: [3, 2, 1], deal_status: 'done', ended_at: '2026-01-01T00:01:00Z' },
  ],
};

describe('ladderModel', () => {
  const m = ladderModel(LADDER);

  it('given standings with intervals, then each row has the rating in words and a bar on one shared, rounded axis', () => {
    expect(m.axis).toMatchObject({ lo: 10, hi: 35 });
    expect(m.axis.ticks.map((t) => t.value)).toEqual([10, 15, 20, 25, 30, 35]);
    expect(m.rows.map((r) => r.agent)).toEqual(['balanced', 'aggressor', 'turtle', 'random']);
    expect(m.rows[0]).toMatchObject({ rank: 1, rating: '30.0 [25.0, 35.0]', bar: { from: 60, to: 100 }, dot: 80 });
    expect(m.rows[1]!.bar).toEqual({ from: 32, to: 64 });
    // balanced [25, 35] and aggressor [18, 26] overlap; turtle [12, 24] and random (no interval) cannot be compared.
    expect(m.rows.map((r) => r.overlapsNext)).toEqual([true, true, false, false]);
    expect(m.rows[3]).toMatchObject({ rating: '25.0 (no games yet)', bar: null, status: 'suspended' });
  });

  it('given a newcomer and a suspended entrant, then the newcomer is marked and the suspension is a sentence with its cause', () => {
    expect(m.rows.filter((r) => r.newcomer).map((r) => r.agent)).toEqual(['turtle']);
    expect(m.absent).toEqual([{ agent: 'random', status: 'suspended', sentence: "random is suspended: 3 of its last 5 games failed on its account (timeouts). It is not seated until an admin re-admits it; its games still count in everyone's ratings." }]);
    expect(m.summary).toBe('3 active entrants at 3 seats a table (compact windows): 2 deals done, 6 games counted, 1 deal being played; 1 newcomer still being placed.');
  });

  it('given recent games, then rows count deals from 1, mark the live one and give places in words', () => {
    expect(m.games).toEqual([
      { game_id: 'g_live', deal: 3, live: true, badge: 'LIVE', seats: 'balanced · turtle · aggressor' },
      { game_id: 'g_done', deal: 2, live: false, badge: 'ended', seats: 'turtle 3rd · aggressor 2nd · balanced 1st' },
    ]);
    expect(gameRow({ ...LADDER.recent_games[1]!, status: 'aborted', placements: null }).badge).toBe('aborted');
  });

  it('given the history, then the chart has one path per entrant in leaderboard order across the deals', () => {
    const c = m.chart!;
    expect(c).toMatchObject({ first: 0, last: 1, lo: 20, hi: 30 });
    expect(c.series.map((s) => [s.agent, s.index])).toEqual([['balanced', 0], ['aggressor', 1], ['turtle', 2]]);
    expect(c.series[0]!.d).toBe('M0 30L1000 0');
    expect(c.series[2]).toMatchObject({ d: 'M1000 100', end: { x: 1000, y: 100 } });
  });

  it('given no done deal, then there is no chart, and the axis still spans a range', () => {
    expect(ratingChart([], [])).toBeNull();
    expect(niceAxis([25])).toMatchObject({ lo: 20, hi: 30 });
    expect(ladderModel({ ...LADDER, history: [], recent_games: [], entrants: [], standings: [] })).toMatchObject({ chart: null, games: [], absent: [], rows: [] });
  });

  it('given a retired entrant, then its sentence says so', () => {
    const r = ladderModel({ ...LADDER, entrants: [entrant('balanced', { status: 'retired', cause: null })] });
    expect(r.absent[0]!.sentence).toBe("balanced was retired from the ladder. Its games still count in everyone's ratings.");
  });
});
