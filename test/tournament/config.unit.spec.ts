import { describe, expect, it } from 'vitest';
import { defaultSwissRounds, gameRules, parseTournamentConfig } from '../../src/tournament/config.js';

const six = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'];
const errors = (input: unknown) => {
  const r = parseTournamentConfig(input);
  if (r.ok) throw new Error('expected a rejection');
  return r.message.split('\n');
};

describe('tournament config', () => {
  it('fills defaults: duplicate on, 2 seeds, seed 0, no budget, no stop rule, full windows, degraded games not rated', () => {
    const r = parseTournamentConfig({ format: 'round-robin', entrants: six, seats: 4 });
    expect(r).toEqual({
      ok: true,
      config: {
        format: 'round-robin',
        entrants: six,
        seats: 4,
        seeds: 2,
        seed: 0,
        max_games: null,
        duplicate: true,
        stop_when_separated: null,
        rounds: null,
        challenger: null,
        compact: false,
        rate_degraded: false,
        rules: {},
      },
    });
  });

  it('resolves real agent specs: built-ins, a skill folder and an llm seat', () => {
    const r = parseTournamentConfig({ format: 'gauntlet', entrants: ['skill:skills/python-example', 'llm:mock', 'random'], seats: 2 });
    expect(r.ok && r.config.challenger).toBe('skill:skills/python-example');
  });

  it('defaults swiss rounds from the entrant count and takes `true` as a top-1 stop rule', () => {
    const r = parseTournamentConfig({ format: 'swiss', entrants: six, seats: 2, stop_when_separated: true });
    expect(r.ok && r.config.rounds).toBe(defaultSwissRounds(6));
    expect(defaultSwissRounds(6)).toBe(4);
    expect(defaultSwissRounds(2)).toBe(3);
    expect(r.ok && r.config.stop_when_separated).toEqual({ top_k: 1, min_games: 20 });
  });

  it('names the field of every problem, one line each', () => {
    expect(
      errors({ format: 'gauntlet', entrants: ['random', 'random', 'nope'], seats: 4, rounds: 2, max_games: 2, challenger: 'turtle', rules: { lifes: 3 } }),
    ).toEqual([
      'rules: Unrecognized key: "lifes"',
      'entrants: names "random" twice (each entrant plays once per table)',
      'entrants: needs at least 4 entrants for 4 seats, got 3',
      expect.stringMatching(/^entrants: unknown agent "nope": expected a built-in/),
      'challenger: "turtle" is not one of the entrants',
      'rounds: only swiss plays rounds (round-robin and gauntlet play every table over `seeds`)',
      'max_games: must be at least 4: one seed in every seat rotation (duplicate groups are never cut)',
    ]);
  });

  it('checks seats against the rules, types, unknown keys and the stop rule', () => {
    expect(errors({ format: 'round-robin', entrants: [...six, 'random '], seats: 7 })).toContain('seats: must be between 2 and 6, got 7');
    expect(errors({ format: 'round-robin', entrants: six, seats: 4, rules: { max_seats: 3 } })).toContain('seats: must be between 2 and 3, got 4');
    expect(errors({ format: 'knockout', entrants: six, seats: 2 })).toEqual(['format: must be one of round-robin, swiss, gauntlet']);
    expect(errors({ format: 'swiss', entrants: six, seats: 2, seeds: 1.5 })).toEqual(['seeds: must be a whole number']);
    expect(errors({ format: 'swiss', entrants: six, seats: 2, sedes: 3 })[0]).toMatch(/Unrecognized key: "sedes"/);
    expect(errors({ format: 'swiss', entrants: six, seats: 2, challenger: 'random' })).toEqual(['challenger: only a gauntlet has a challenger']);
    expect(errors({ format: 'swiss', entrants: six, seats: 2, stop_when_separated: { top_k: 6 } })).toEqual([
      'stop_when_separated: top_k must be below the entrant count (6), got 6',
    ]);
  });

  it('allows a budget of one game per deal without duplicate seeds', () => {
    const r = parseTournamentConfig({ format: 'round-robin', entrants: six, seats: 4, duplicate: false, max_games: 1 });
    expect(r.ok && r.config.max_games).toBe(1);
  });

  it('turns compact into compact windows for every game', () => {
    const r = parseTournamentConfig({ format: 'round-robin', entrants: six, seats: 4, compact: true, rules: { lives: 2 } });
    expect(r.ok && gameRules(r.config)).toEqual({ lives: 2, windows: 'compact' });
  });
});
