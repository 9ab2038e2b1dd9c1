import { describe, expect, it } from 'vitest';
import { separation } from '../../src/eval/games-to-separate.js';

describe('games to separate', () => {
  it('given paired differences, then the games needed are (1.96·sd/mean)² units in games, and bigger subsamples separate more often', () => {
    const values = [1, -1, 1, 3, 0.5, 1.5, -0.5, 2.5];
    const s = separation(values, 2, [2, 8, 32, 128], 7);
    expect(s.mean).toBeCloseTo(1, 9);
    const sd = Math.sqrt(values.reduce((a, x) => a + (x - 1) ** 2, 0) / 7);
    expect(s.sd).toBeCloseTo(sd, 6);
    expect(s.games_needed).toBe(Math.ceil((1.96 * sd) ** 2 * 2));
    expect(s.empirical.map((c) => c.games)).toEqual([4, 16, 64, 256]);
    const shares = s.empirical.map((c) => c.separated);
    expect(shares[3]).toBe(1);
    expect(shares[0]).toBeLessThan(shares[2]!);
    expect(s.empirical_games_80).toBe(64);
    expect(separation(values, 2, [2, 8, 32, 128], 7)).toEqual(s);
  });

  it('given a zero mean, then nothing separates and no game count is claimed', () => {
    const s = separation([1, -1, 1, -1], 1, [4, 40]);
    expect(s.games_needed).toBeNull();
    expect(s.empirical.every((c) => c.separated === 0)).toBe(true);
  });
});
