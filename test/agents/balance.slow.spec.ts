/**
 * Rules 2.0.0's balance, pinned coarsely over seeded runs (issue 14; the full figures come from
 * `npm run bench:depth`). Deterministic: the same seeds give the same games, so a band that breaks
 * means the rules or the agents changed, not luck.
 */
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/runner/simulate.js';

const GAMES = 40;
const winRate = async (lineup: string[], rules?: object) => {
  const r = await simulate({ games: GAMES, seed: 9_100, agents: lineup, seats: lineup.length, ...(rules ? { rules } : {}) });
  return r.byAgent[lineup[0]!]!.winRate!;
};

describe('balance under rules 2.0.0 (seats rotating, 40 games each)', () => {
  it('given turtle against three balanced, then 2.0.0 cuts its win rate well below 1.0.0’s, and below 40 %', { timeout: 600_000 }, async () => {
    const v1 = await winRate(['turtle', 'balanced', 'balanced', 'balanced'], { rules_version: '1.0.0' });
    const v2 = await winRate(['turtle', 'balanced', 'balanced', 'balanced']);
    expect(v1).toBeGreaterThan(0.4);
    expect(v2).toBeLessThan(0.4);
    expect(v1 - v2).toBeGreaterThan(0.1);
  });

  // Random against three balanced (at most 15 %) is strength.slow.spec.ts's, over 200 games.
});
