import { describe, expect, it } from 'vitest';
import { bootstrapMean } from '../../src/tournament/bootstrap.js';
import { roundRobin } from '../../src/tournament/round-robin.js';
import { fitRatings } from '../../src/tournament/fit-standings.js';
import { separated } from '../../src/tournament/separation.js';
import { headToHead, standings } from '../../src/tournament/standings.js';
import { swiss } from '../../src/tournament/swiss.js';
import type { GameResult } from '../../src/tournament/types.js';
import { config, drive, NAMES, synthetic } from './support.js';

const entrants = NAMES.slice(0, 6);
// a5 is clearly the strongest; the rest are close.
const strength = (a: string) => (a === 'a5' ? 3 : Number(a.slice(1)) * 0.1);

describe('ratings', () => {
  const cfg = config({ format: 'round-robin', entrants, seats: 4, seeds: 6, seed: 11 });
  const { results } = drive(cfg, roundRobin, synthetic(strength, 1.5));

  it('recomputed from the same results, in any order and from a copy, are the same bit for bit', () => {
    const live = standings(cfg, results);
    const stored = standings(structuredClone(cfg), JSON.parse(JSON.stringify(results)) as GameResult[]);
    const reversed = standings(cfg, [...results].reverse());
    expect(stored).toStrictEqual(live);
    expect(reversed).toStrictEqual(live);
    for (let i = 0; i < live.length; i++) {
      expect(Object.is(reversed[i]!.mu, live[i]!.mu)).toBe(true);
      expect(Object.is(reversed[i]!.sigma, live[i]!.sigma)).toBe(true);
    }
  });

  it('rank the clearly stronger agent first, by μ, with its intervals separated from the rest', () => {
    const table = standings(cfg, results);
    expect(table[0]!.agent).toBe('a5');
    expect(table.map((s) => s.mu)).toEqual([...table.map((s) => s.mu)].sort((x, y) => y - x));
    expect(table[0]!.rating_ci!.low).toBeGreaterThan(Math.max(...table.slice(1).map((s) => s.rating_ci!.high)));
    expect(separated(table, { top_k: 1 })).toBe(true);
    expect(separated(table, { top_k: 3 })).toBe(false);
  });

  it('in a balanced round-robin, order agents as their mean placements do wherever the rating intervals separate them', () => {
    const even = config({ format: 'round-robin', entrants, seats: 4, seeds: 2, seed: 3 });
    const played = drive(even, roundRobin, synthetic((a) => Number(a.slice(1)) * 0.15, 1.5)).results;
    const table = standings(even, played);
    let separatedPairs = 0;
    for (let i = 0; i < table.length; i++)
      for (let j = i + 1; j < table.length; j++) {
        const [a, b] = [table[i]!, table[j]!];
        if (a.rating_ci!.low <= b.rating_ci!.high) continue;
        separatedPairs++;
        expect(a.mean_placement!, `${a.agent} above ${b.agent}`).toBeLessThan(b.mean_placement!);
      }
    expect(separatedPairs).toBeGreaterThan(0);
  });

  it('start every entrant at the prior (μ 25, σ 25/3) and move winners up, losers down, σ down for who played', () => {
    const r = fitRatings(['x', 'y', 'z'], [{ key: 'k', round: 0, seats: ['x', 'y'], placements: [1, 2] }]);
    expect(r.get('z')).toEqual({ mu: 25, sigma: 8.333333 });
    expect(r.get('x')!.mu).toBeGreaterThan(25);
    expect(r.get('y')!.mu).toBeLessThan(25);
    expect(r.get('x')!.mu - 25).toBeCloseTo(25 - r.get('y')!.mu, 6);
    expect(r.get('x')!.sigma).toBeLessThan(25 / 3);
  });

  it('treat tied placements as evidence of a level pair (equal μ), wherever the tie is', () => {
    const r = fitRatings(['x', 'y'], [{ key: 'k', round: 0, seats: ['x', 'y'], placements: [1, 1] }]);
    expect(r.get('x')!.mu).toBe(r.get('y')!.mu);
    const t = fitRatings(['w', 'x', 'y'], [
      { key: 'k1', round: 0, seats: ['w', 'x', 'y'], placements: [1, 2, 2] },
      { key: 'k2', round: 0, seats: ['y', 'x', 'w'], placements: [2, 2, 1] },
    ]);
    expect(t.get('x')!.mu).toBeCloseTo(t.get('y')!.mu, 9);
    expect(t.get('w')!.mu).toBeGreaterThan(t.get('x')!.mu);
  });
});

describe('standings', () => {
  const results: GameResult[] = [
    { key: 'g1', round: 0, seats: ['a', 'b', 'c'], placements: [1, 2, 3] },
    { key: 'g2', round: 0, seats: ['b', 'c', 'a'], placements: [1, 3, 2] },
    { key: 'g3', round: 0, seats: ['c', 'a', 'b'], placements: [2, 1, 2] },
  ];
  const table = standings({ entrants: ['a', 'b', 'c', 'd'], seed: 5 }, results);
  const row = (x: string) => table.find((s) => s.agent === x)!;

  it('counts games, wins and mean placement per agent, and lists entrants yet to play with no intervals', () => {
    expect([row('a').games, row('a').wins, row('a').mean_placement]).toEqual([3, 2, 4 / 3]);
    expect([row('b').games, row('b').wins, row('b').mean_placement]).toEqual([3, 1, 5 / 3]);
    expect([row('c').games, row('c').wins, row('c').mean_placement]).toEqual([3, 0, 8 / 3]);
    expect(row('d')).toMatchObject({ games: 0, wins: 0, mean_placement: null, win_rate: null, placement_ci: null, mu: 25 });
    expect(row('a').win_rate!.value).toBeCloseTo(2 / 3, 6);
  });

  it('builds the head-to-head matrix: games together and who placed above whom', () => {
    const h = headToHead(['a', 'b', 'c'], results);
    const cell = (a: string, b: string) => h.find((x) => x.a === a && x.b === b);
    expect(cell('a', 'b')).toEqual({ a: 'a', b: 'b', games: 3, above: 2, level: 0, below: 1 });
    expect(cell('b', 'a')).toEqual({ a: 'b', b: 'a', games: 3, above: 1, level: 0, below: 2 });
    expect(cell('b', 'c')).toEqual({ a: 'b', b: 'c', games: 3, above: 2, level: 1, below: 0 });
    expect(cell('c', 'a')).toEqual({ a: 'c', b: 'a', games: 3, above: 0, level: 0, below: 3 });
    expect(h).toHaveLength(6);
  });
});

describe('bootstrap intervals', () => {
  const xs = [1, 0, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1];

  it('are seeded: the same sample, seed and label give the same interval; another seed another', () => {
    const a = bootstrapMean(xs, 1, 'win:a');
    expect(bootstrapMean([...xs], 1, 'win:a')).toEqual(a);
    // 0/1 samples give intervals on a coarse grid; distinct values show the resampling itself.
    const ys = xs.map((x, i) => x + i / 100);
    const bySeed = new Set(Array.from({ length: 10 }, (_, s) => JSON.stringify(bootstrapMean(ys, s, 'win:a'))));
    const byLabel = new Set(Array.from({ length: 10 }, (_, s) => JSON.stringify(bootstrapMean(ys, 1, `win:${s}`))));
    expect(bySeed.size).toBeGreaterThan(1);
    expect(byLabel.size).toBeGreaterThan(1);
  });

  it('bracket the mean and narrow as the sample grows', () => {
    const small = bootstrapMean(xs, 1, 'x')!;
    const big = bootstrapMean(Array.from({ length: 40 }, () => xs).flat(), 1, 'x')!;
    expect(small.value).toBeCloseTo(8 / 12, 6);
    expect(small.low).toBeLessThan(small.value);
    expect(small.high).toBeGreaterThan(small.value);
    expect(big.high - big.low).toBeLessThan((small.high - small.low) / 3);
    // A binomial 95 % interval at n = 480, p = 2/3 is about ±0.042.
    expect(big.high - big.low).toBeGreaterThan(0.06);
    expect(big.high - big.low).toBeLessThan(0.11);
  });

  it('are null for no games and a point for a constant sample', () => {
    expect(bootstrapMean([], 1, 'x')).toBeNull();
    expect(bootstrapMean([1, 1, 1], 1, 'x')).toEqual({ value: 1, low: 1, high: 1 });
  });

  it('make standings reproducible: the same results give the same intervals', () => {
    const cfg = config({ format: 'swiss', entrants, seats: 3, rounds: 4, seed: 21 });
    const { results } = drive(cfg, swiss, synthetic(strength));
    expect(standings(cfg, results)).toStrictEqual(standings(cfg, [...results]));
    expect(standings({ ...cfg, seed: 22 }, results).map((s) => s.win_rate)).not.toEqual(standings(cfg, results).map((s) => s.win_rate));
  });
});
