import { describe, expect, it } from 'vitest';
import type { Window } from '../../src/protocol/index.js';
import { runGame } from '../../src/runner/run-game.js';
import { buildAgents, seatConfigs } from '../../src/runner/lineup.js';
import { gameWpa } from '../../src/eval/wpa.js';
import { reportToCsv } from '../../src/tournament/report-csv.js';
import { tournamentReport, type ReportGame } from '../../src/tournament/report.js';
import { wpaFigures, type WpaGame } from '../../src/tournament/wpa-figures.js';
import { standings } from '../../src/tournament/standings.js';
import { withWpa } from '../../src/tournament/wpa-standings.js';

/** Two deals, each in both seatings: a duplicate group of two games per deal. */
function games(): ReportGame[] {
  return [21, 22].flatMap((seed) =>
    [0, 1].map((rot) => {
      const seats = rot ? ['random', 'balanced', 'random'] : ['balanced', 'random', 'balanced'];
      const run = runGame({ seats: seatConfigs(seats) }, seed, buildAgents(seats, seed));
      return { game_id: `g${seed}${rot}`, key: `r0000-t0000-d${seed}-p${rot}`, events: run.events, seats, asks: run.decisions.map((d) => ({ seq: d.seq, player_id: d.player_id, window: d.window as Window })) };
    }),
  );
}

describe('WPA figures', () => {
  it('given stored games, then the report has each agent’s mean choice WPA per decision, over every decision and per window, with an interval around it', () => {
    const gs = games();
    const report = tournamentReport(gs);
    const all = report.wpa.filter((r) => r.kind === 'all');
    expect(all.map((r) => r.agent)).toEqual(['balanced', 'random']);
    for (const row of all) {
      let sum = 0;
      let n = 0;
      for (const g of gs) {
        const w = gameWpa(g.events, g.asks);
        (g.seats as string[]).forEach((a, i) => {
          if (a !== row.agent) return;
          sum += w.seats[`plr_${i + 1}`]!.choice_sum;
          n += w.seats[`plr_${i + 1}`]!.decisions;
        });
      }
      expect(row.decisions).toBe(n);
      expect(row.games).toBe(4);
      expect(row.mean!.value).toBeCloseTo(sum / n, 6);
      expect(row.mean!.low).toBeLessThanOrEqual(row.mean!.value);
      expect(row.mean!.high).toBeGreaterThanOrEqual(row.mean!.value);
      const kinds = report.wpa.filter((r) => r.agent === row.agent && r.kind !== 'all');
      expect(kinds.map((r) => r.kind)).toEqual(['intent', 'talk', 'action', 'reaction', 'reflect']);
      expect(kinds.reduce((a, r) => a + r.decisions, 0)).toBe(n);
    }
    expect(tournamentReport(gs).wpa).toEqual(report.wpa);
    const csv = reportToCsv(report)['wpa.csv'].trim().split('\n');
    expect(csv[0]).toBe('agent,kind,games,decisions,wpa,wpa_low,wpa_high');
    expect(csv).toHaveLength(1 + report.wpa.length);
  });

  it('given games of one duplicate group, then every resample draws them together and the interval is the point; apart, it widens', () => {
    const tally = (x: number) => [{ agent: 'a', kind: 'all' as const, sum: x, decisions: 1 }];
    const xs = [0.1, -0.05, 0.2, 0.0];
    const together: WpaGame[] = xs.map((x) => ({ group: 'd1', tally: tally(x) }));
    const apart: WpaGame[] = xs.map((x, i) => ({ group: `d${i}`, tally: tally(x) }));
    const [t] = wpaFigures(['a'], together, 0, 200);
    const [s] = wpaFigures(['a'], apart, 0, 200);
    expect(t!.mean).toEqual({ value: 0.0625, low: 0.0625, high: 0.0625 });
    expect(s!.mean!.value).toBe(0.0625);
    expect(s!.mean!.high - s!.mean!.low).toBeGreaterThan(0.05);
  });
});

describe('standings with WPA', () => {
  it('given results with tallies, then each agent gets its mean WPA per decision beside its rating (resampling the duplicate groups), an agent with none gets null, and the ratings do not move', () => {
    const config = { entrants: ['a', 'b', 'c'], seed: 5 };
    const results = [0, 1, 2, 3].flatMap((d) => [0, 1].map((p) => ({ key: `r0000-t0000-d${d}-p${p}`, round: 0, seats: p ? ['b', 'a'] : ['a', 'b'], placements: p ? [2, 1] : [1, 2] })));
    const tallies = new Map(results.map((r, i) => [r.key, [{ agent: 'a', kind: 'all' as const, sum: 0.01 * (i % 3), decisions: 2 }, { agent: 'b', kind: 'all' as const, sum: -0.01, decisions: 2 }]]));
    const table = standings(config, results);
    const out = withWpa(table, config, results, tallies);
    expect(out.map(({ wpa: _w, wpa_decisions: _d, ...s }) => s)).toEqual(table);
    const a = out.find((s) => s.agent === 'a')!;
    expect(a.wpa_decisions).toBe(16);
    expect(a.wpa!.value).toBeCloseTo((0.01 * (0 + 1 + 2 + 0 + 1 + 2 + 0 + 1)) / 16, 6);
    expect(a.wpa!.high).toBeGreaterThan(a.wpa!.low);
    expect(out.find((s) => s.agent === 'b')!.wpa).toEqual({ value: -0.005, low: -0.005, high: -0.005 });
    expect(out.find((s) => s.agent === 'c')).toMatchObject({ wpa: null, wpa_decisions: 0 });
    expect(withWpa(table, config, results, tallies)).toEqual(out);
  });
});
