import { describe, expect, it } from 'vitest';
import { planTournament } from '../../src/tournament/plan.js';
import { config, NAMES } from './support.js';

describe('planTournament', () => {
  it('counts a round-robin’s games and each entrant’s seats without playing: 6 entrants, 4 seats, 2 seeds', () => {
    const plan = planTournament(config({ format: 'round-robin', entrants: NAMES.slice(0, 6), seats: 4, seeds: 2, seed: 3 }));
    // C(6, 4) = 15 tables × 2 deals × 4 rotations; each entrant sits at C(5, 3) = 10 tables.
    expect(plan).toEqual({ games: 120, upper_bound: false, seats: NAMES.slice(0, 6).map((agent) => ({ agent, games: 80 })) });
  });

  it('counts a swiss by its rounds and says when the stop rule makes the count an upper bound', () => {
    const plan = planTournament(config({ format: 'swiss', entrants: NAMES.slice(0, 8), seats: 2, rounds: 3, seeds: 1, stop_when_separated: true }));
    expect(plan.games).toBe(3 * 4 * 2);
    expect(plan.upper_bound).toBe(true);
  });
});
