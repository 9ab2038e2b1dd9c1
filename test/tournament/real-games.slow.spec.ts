import { describe, expect, it } from 'vitest';
import { buildAgents, seatConfigs } from '../../src/runner/lineup.js';
import { runGame } from '../../src/runner/run-game.js';
import { gameRules, parseTournamentConfig } from '../../src/tournament/config.js';
import { nextGames } from '../../src/tournament/formats.js';
import { resultFromEvents } from '../../src/tournament/result-of.js';
import { tournamentReport, type ReportGame } from '../../src/tournament/report.js';
import { separated } from '../../src/tournament/separation.js';
import { standings } from '../../src/tournament/standings.js';
import type { GameResult, TournamentConfig } from '../../src/tournament/types.js';

/** Plays a tournament of built-ins in memory with the real engine, batch by batch. */
function play(config: TournamentConfig, logs: ReportGame[] = []): GameResult[] {
  const results: GameResult[] = [];
  for (let batch = nextGames(config, results); batch !== 'done'; batch = nextGames(config, results)) {
    for (const g of batch) {
      const run = runGame({ seats: seatConfigs(g.seats), rules: gameRules(config) }, g.seed, buildAgents(g.seats, g.seed));
      const r = resultFromEvents(g, run.events);
      if (!r) throw new Error(`game ${g.key} did not end`);
      results.push(r);
      logs.push({ events: run.events, seats: g.seats, decisions: run.decisions.length });
    }
  }
  return results;
}

describe('a tournament of real games', () => {
  it('ranks balanced, clearly stronger than random, first with separated intervals, and stops on the rule', () => {
    const parsed = parseTournamentConfig({
      format: 'round-robin',
      entrants: ['random', 'balanced'],
      seats: 2,
      seeds: 40,
      seed: 4,
      compact: true,
      stop_when_separated: { top_k: 1, min_games: 12 },
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const logs: ReportGame[] = [];
    const results = play(parsed.config, logs);
    const table = standings(parsed.config, results);
    expect(table.map((s) => s.agent)).toEqual(['balanced', 'random']);
    expect(separated(table, { top_k: 1, min_games: 12 })).toBe(true);
    expect(table[0]!.placement_ci!.high).toBeLessThan(table[1]!.placement_ci!.low);
    // Stopped well before the 80-game schedule, on whole duplicate pairs.
    expect(results.length).toBeLessThan(80);
    expect(results.length % 2).toBe(0);
    // Every result came from a game: the same config replays to the same standings.
    expect(standings(parsed.config, play(parsed.config))).toStrictEqual(table);

    // The research report of the same games adds up: what was given was received, pair by pair.
    const report = tournamentReport(logs);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const given = sum(report.agents.map((a) => a.manipulation_given.attempts));
    expect(given).toBeGreaterThan(0);
    expect(sum(report.agents.map((a) => a.manipulation_received.attempts))).toBe(given);
    expect(sum(report.pairs.map((p) => p.manipulation.attempts))).toBe(given);
    for (const a of report.agents) expect(sum(Object.values(a.by_plan).map((o) => o.attempts))).toBe(a.manipulation_given.attempts);
    expect(report.overall.byAgent['balanced']!.wins).toBe(table[0]!.wins);
  });
});
