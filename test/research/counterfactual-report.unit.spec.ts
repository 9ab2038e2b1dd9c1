import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/research/counterfactual.js';
import { counterfactualReport } from '../../src/research/counterfactual-report.js';
import { formatCounterfactual } from '../../src/cli/counterfactual-format.js';

/**
 * 20 runs of a two-seat game: plr_1 wins `wins` of them (and then eliminates plr_2), plr_2 the rest.
 * plr_1 therefore wins 0, 20 or a middling number of runs; the interval must say how sure that is.
 */
function runs(wins: number, n = 20): RunResult[] {
  return Array.from({ length: n }, (_, run) => {
    const first = run < wins;
    return {
      run,
      reseed: run,
      game_id: null,
      outcome: {
        seats: [
          { player_id: 'plr_1', placement: first ? 1 : 2, lives: first ? 2 : 0, alive: first },
          { player_id: 'plr_2', placement: first ? 2 : 1, lives: first ? 0 : 2, alive: !first },
        ],
        eliminations: [first ? { player_id: 'plr_2', by: 'plr_1', turn: 5 } : { player_id: 'plr_1', by: 'plr_2', turn: 5 }],
        rounds: 5,
        reason: 'last_standing',
      },
    };
  });
}

const report = (wins: number) => counterfactualReport({ parent_game_id: 'game_x', at: { seq: 10, round: 2 }, agents: ['balanced', 'random'], runs: 20, reseed_from: 1 }, null, runs(wins));

describe('counterfactual win rates (Wilson)', () => {
  it('given 0 wins of 20, then the win rate is 0 with an interval reaching up to ~16 %, not 0 %–0 %', () => {
    const r = report(0);
    expect(r.seats[0]!.win_rate).toEqual({ value: 0, low: 0, high: 0.161125 });
    expect(r.seats[0]!.survival).toEqual({ value: 0, low: 0, high: 0.161125 });
    expect(r.eliminations.find((e) => e.player_id === 'plr_1')!.share).toEqual({ value: 1, low: 0.838875, high: 1 });
    expect(formatCounterfactual(r)).toMatch(/0% \[0%–16%\]/);
    expect(formatCounterfactual(r)).not.toMatch(/0% \[0%–0%\]/);
  });

  it('given every run won, then the interval reaches down to ~84 %', () => {
    const r = report(20);
    expect(r.seats[0]!.win_rate).toEqual({ value: 1, low: 0.838875, high: 1 });
    expect(formatCounterfactual(r)).toMatch(/100% \[84%–100%\]/);
  });

  it('given 10 of 20, then the Wilson interval sits around one half (~30 %–70 %)', () => {
    const w = report(10).seats[0]!.win_rate!;
    expect(w.value).toBe(0.5);
    expect(w.low).toBeCloseTo(0.2993, 3);
    expect(w.high).toBeCloseTo(0.7007, 3);
    // The means keep their bootstrap interval, seeded by reseed_from: the same runs give the same report.
    expect(report(10).seats[0]!.mean_placement).toEqual(report(10).seats[0]!.mean_placement);
    expect(report(10).seats[0]!.mean_placement!.low).toBeLessThan(1.5);
  });
});
