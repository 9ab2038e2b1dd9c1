import { describe, expect, it } from 'vitest';
import { dealScore, gameInformation, pairWeights } from '../../src/ladder/information.js';
import { dealRotations, nextLineup } from '../../src/ladder/matchmaker.js';
import { drawPlacements } from '../../src/ladder/simulate.js';
import type { LadderEntrant } from '../../src/ladder/types.js';
import { PRIOR_SD } from '../../src/tournament/fit-standings.js';
import { compileGames, covarianceAt, fitPlackettLuce } from '../../src/tournament/plackett-luce.js';
import { prng } from '../../src/tournament/seeds.js';
import { drive, names } from './support.js';

const active = (ids: readonly string[]): LadderEntrant[] => ids.map((id) => ({ id, joined_at: 0, status: 'active' }));
const level = (id: string) => -0.3 * Number(id.replace(/\D/g, ''));

describe('gameInformation', () => {
  it('is the Bradley–Terry information p(1 − p) for two seats', () => {
    const p = Math.exp(1) / (Math.exp(1) + 1);
    const j = gameInformation([1, 0]);
    expect(j[0]).toBeCloseTo(p * (1 - p), 12);
    expect(j[1]).toBeCloseTo(-p * (1 - p), 12);
    expect(j[3]).toBeCloseTo(p * (1 - p), 12);
  });

  it('is symmetric and its rows sum to 0 (a common shift of θ changes no game)', () => {
    const j = gameInformation([0.4, -1, 2, 0]);
    for (let r = 0; r < 4; r++) {
      expect(j.slice(r * 4, r * 4 + 4).reduce((a, x) => a + x, 0)).toBeCloseTo(0, 12);
      for (let c = 0; c < 4; c++) expect(j[r * 4 + c]).toBeCloseTo(j[c * 4 + r]!, 12);
    }
  });
});

describe('covarianceAt', () => {
  it('has the fit’s sd² on its diagonal', () => {
    const games = [
      { seats: [0, 1, 2], placements: [1, 2, 3] },
      { seats: [2, 0, 1], placements: [1, 3, 2] },
    ];
    const fit = fitPlackettLuce(3, games, { priorSd: PRIOR_SD });
    const cov = covarianceAt(compileGames(3, games), new Float64Array([1, 1]), fit.theta, { priorSd: PRIOR_SD });
    for (let i = 0; i < 3; i++) expect(Math.sqrt(cov[i * 3 + i]!)).toBe(fit.sd[i]);
  });
});

describe('dealScore', () => {
  const theta = Float64Array.from([0.3, 0.2, 0.1, -2, -2.1]);
  const cov = new Float64Array(25);
  for (let i = 0; i < 5; i++) cov[i * 5 + i] = 0.1;
  const state = { theta, cov, pairs: pairWeights(theta, cov, [0, 1, 2, 3, 4], null) };

  it('prefers entrants whose order is in doubt and grows with the rotations played', () => {
    expect(dealScore(state, [0, 1, 2], 3)).toBeGreaterThan(dealScore(state, [0, 3, 4], 3));
    expect(dealScore(state, [0, 1, 2], 3)).toBeGreaterThan(dealScore(state, [0, 1, 2], 1));
  });

  it('with a focus, counts only pairs that touch the top', () => {
    const focused = { theta, cov, pairs: pairWeights(theta, cov, [0, 1, 2, 3, 4], 2) };
    expect(focused.pairs.every((p) => p.i <= 1 || p.j <= 1)).toBe(true);
    expect(dealScore(focused, [2, 3, 4], 3)).toBeLessThan(dealScore(state, [2, 3, 4], 3));
  });
});

describe('dealRotations', () => {
  it('seats every entrant of the line-up in every seat once', () => {
    const games = dealRotations(['a', 'b', 'c', 'd']);
    expect(games).toEqual([
      ['a', 'b', 'c', 'd'],
      ['b', 'c', 'd', 'a'],
      ['c', 'd', 'a', 'b'],
      ['d', 'a', 'b', 'c'],
    ]);
  });
});

describe('drawPlacements', () => {
  it('gives each seat a distinct placement and follows the strengths', () => {
    const next = prng(1, 'draw');
    let firstWins = 0;
    for (let i = 0; i < 200; i++) {
      const p = drawPlacements([3, 0, -3], next);
      expect([...p].sort()).toEqual([1, 2, 3]);
      if (p[0] === 1) firstWins++;
    }
    expect(firstWins).toBeGreaterThan(150);
  });
});

describe('nextLineup', () => {
  it('answers a field smaller than a table, a deal naming a stranger and bad options with error values', () => {
    const next = prng(1, 'x');
    expect(nextLineup({ entrants: active(['a', 'b']), deals: [], seats: 3, next })).toMatchObject({ ok: false, error: 'ladder/too_few_entrants' });
    const stranger = { lineup: ['a', 'z'], games: [] };
    expect(nextLineup({ entrants: active(['a', 'b']), deals: [stranger], seats: 2, next })).toMatchObject({ ok: false, error: 'ladder/bad_request' });
    expect(nextLineup({ entrants: active(['a', 'b', 'c']), deals: [{ lineup: ['a', 'a'], games: [] }], seats: 2, next })).toMatchObject({ ok: false, error: 'ladder/bad_request' });
    expect(nextLineup({ entrants: active(['a', 'b']), deals: [], seats: 2, next, options: { placement_games: -1 } })).toMatchObject({ ok: false, error: 'ladder/bad_request' });
    expect(nextLineup({ entrants: active(['a', 'a']), deals: [], seats: 2, next })).toMatchObject({ ok: false, error: 'ladder/bad_request' });
  });

  it('never seats a retired or suspended entrant', () => {
    const entrants: LadderEntrant[] = [...active(names(5)), { id: 'r', joined_at: 0, status: 'retired' }, { id: 's', joined_at: 0, status: 'suspended' }];
    for (let seed = 0; seed < 20; seed++) {
      const m = nextLineup({ entrants, deals: [], seats: 4, next: prng(seed, 'm') });
      expect(m.ok && m.lineup.some((id) => id === 'r' || id === 's')).toBe(false);
    }
  });

  it('places a newcomer first: it plays every deal until it has its placement games', () => {
    const { steps } = drive({ seed: 3, seats: 4, initial: names(10), strength: level, deals: 40, events: [{ at: 30, join: 'new' }] });
    const after = steps.slice(30, 32);
    for (const s of after) expect(s.match.ok && s.match.lineup.includes('new') && s.match.reason === 'placement').toBe(true);
    // Two deals of 4 rotations are its 8 placement games; then it competes for seats like anyone.
    expect(steps[32]!.match.ok && steps[32]!.match.reason).not.toBe('placement');
  });

  it('seats an entrant idle for max_idle_deals deals first', () => {
    const { steps } = drive({ seed: 5, seats: 3, initial: names(9), strength: level, deals: 60, options: { max_idle_deals: 5, placement_games: 3 } });
    const idle = steps.filter((s) => s.match.ok && s.match.reason === 'idle');
    expect(idle.length).toBeGreaterThan(0);
    for (const s of idle) {
      const last = new Map<string, number>();
      s.deals.forEach((d, i) => d.lineup.forEach((id) => last.set(id, i)));
      const longest = Math.max(...s.entrants.map((e) => s.deals.length - 1 - (last.get(e.id) ?? -1)));
      expect(longest).toBeGreaterThanOrEqual(5);
    }
  });

  it('once placed, spends deals on entrants adjacent in the ranking, most on the top with a focus', () => {
    const { deals } = drive({ seed: 9, seats: 4, initial: names(16), strength: level, deals: 80, options: { focus_top: 4 } });
    const top = new Set(['e0', 'e1', 'e2', 'e3', 'e4']);
    const late = deals.slice(40).flatMap((d) => d.lineup);
    expect(late.filter((id) => top.has(id)).length / late.length).toBeGreaterThan(0.5);
  });
});
