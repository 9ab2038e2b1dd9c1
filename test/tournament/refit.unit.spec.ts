import { describe, expect, it } from 'vitest';
import { refitStandings } from '../../src/tournament/refit.js';
import { roundRobin } from '../../src/tournament/round-robin.js';
import { computeStandings, LIVE_RESAMPLES } from '../../src/tournament/standings.js';
import type { GameResult } from '../../src/tournament/types.js';
import { config, drive, NAMES, synthetic } from './support.js';

const entrants = NAMES.slice(0, 5);
const cfg = config({ format: 'round-robin', entrants, seats: 4, seeds: 2, seed: 5 });
const { results } = drive(cfg, roundRobin, synthetic((a) => Number(a.slice(1)) * 0.3, 1.5));

/** Results as stored tournament games (placements as game_ended's, by player id). */
const records = (rs: readonly GameResult[]) =>
  rs.map((r) => ({
    key: r.key,
    round: r.round,
    seats: r.seats,
    state: 'ended' as const,
    degraded: false,
    placements: r.placements.map((placement, i) => ({ player_id: `plr_${i + 1}`, placement, alive: placement === 1, lives: 0, resolve: 0, tempo: 0, exposure: 0, eliminated_turn: null })),
  }));

describe('refitStandings', () => {
  it('given the table an ended tournament stored, then the refit of its stored results equals it field for field', () => {
    const stored = computeStandings(cfg, results, 1000);
    const { standings, check } = refitStandings(cfg, records([...results].reverse()), false, stored);
    expect(standings).toEqual(stored);
    expect(check).toEqual({ results: results.length, resamples: 1000, equals_stored: true, differing: [], max_mu_diff: 0 });
  });

  it('given a stale stored table (a running one: fewer games, 200 resamples), then it says which rows differ and by how much', () => {
    const stale = computeStandings(cfg, results.slice(0, results.length - 8), LIVE_RESAMPLES);
    const { standings, check } = refitStandings(cfg, records(results), false, stale);
    expect(standings).toEqual(computeStandings(cfg, results, 1000));
    expect(check.equals_stored).toBe(false);
    expect(check.differing.length).toBeGreaterThan(0);
    expect(check.max_mu_diff).toBeGreaterThan(0);
  });
});
