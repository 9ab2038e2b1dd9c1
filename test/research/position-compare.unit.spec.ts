import { describe, expect, it } from 'vitest';
import { comparePaired } from '../../src/research/position-compare.js';
import type { PositionResult } from '../../src/research/position-eval.js';

const results = (regrets: readonly number[]): PositionResult[] =>
  regrets.map((regret, i) => ({ position_id: `game_x:${i}`, answered: true, legal: true, key: 'pass', problem: null, regret, move_regret: regret, agrees: false }));

describe('comparing two agents position by position', () => {
  it('separates an agent that loses less at every position, and names it', () => {
    const a = results(Array.from({ length: 50 }, (_, i) => (i % 5) + 1));
    const b = results(Array.from({ length: 50 }, (_, i) => (i % 5) + 2 + (i % 3)));
    const c = comparePaired('balanced', a, 'random', b);
    expect(c.mean_difference.value).toBeCloseTo(-2, 1);
    expect(c.mean_difference.high).toBeLessThan(0);
    expect(c).toMatchObject({ separated: true, better: 'balanced', positions: 50 });
    expect(c.detectable).toBeCloseTo((2.8 * c.sd) / Math.sqrt(50), 5);
    expect(comparePaired('balanced', a, 'random', b)).toEqual(c);
  });

  it('does not separate differences that cancel out, and refuses answers to different positions', () => {
    const a = results([1, 3, 1, 3, 1, 3]);
    const b = results([3, 1, 3, 1, 3, 1]);
    expect(comparePaired('a', a, 'b', b)).toMatchObject({ separated: false, better: null, mean_difference: { value: 0 } });
    expect(() => comparePaired('a', a, 'b', b.slice(1))).toThrow(/different positions/);
  });
});
