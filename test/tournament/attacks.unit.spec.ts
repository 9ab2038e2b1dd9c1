import { describe, expect, it } from 'vitest';
import { viewEvent } from '../../src/game/index.js';
import { buildAgents, seatConfigs } from '../../src/runner/lineup.js';
import { runGame } from '../../src/runner/run-game.js';
import { attackMatrix, attackRows } from '../../src/tournament/attacks.js';
import { tournamentReport, type ReportGame } from '../../src/tournament/report.js';

/** Three real games of built-ins that manipulate (full windows), as a tournament would store them. */
function games(): ReportGame[] {
  const lineups = [
    ['manipulator', 'aggressor', 'trickster'],
    ['trickster', 'manipulator', 'balanced'],
    ['aggressor', 'balanced', 'manipulator'],
  ];
  return lineups.map((seats, i) => {
    const run = runGame({ seats: seatConfigs(seats), rules: {} }, 100 + i, buildAgents(seats, 100 + i));
    return { game_id: `game_${i}`, events: run.events, seats, decisions: run.decisions.length };
  });
}

describe('the who-manipulated-whom matrix', () => {
  const logs = games();
  const report = tournamentReport(logs);

  it('lists, per ordered pair, exactly the attempts the report counts, each pointing at its action_resolved', () => {
    expect(report.attacks.length).toBeGreaterThan(0);
    for (const pair of report.pairs) {
      const cell = report.attacks.find((c) => c.agent === pair.agent && c.target === pair.target);
      expect(cell?.attempts ?? 0, `${pair.agent}>${pair.target}`).toBe(pair.manipulation.attempts);
      expect(cell?.successes ?? 0).toBe(pair.manipulation.successes);
      expect(cell?.partial ?? 0).toBe(pair.manipulation.partial);
    }
    for (const cell of report.attacks) {
      expect(cell.attacks).toHaveLength(cell.attempts);
      expect(cell.games).toEqual([...new Set(cell.attacks.map((a) => a.game_id))]);
      for (const a of cell.attacks) {
        const g = logs.find((l) => l.game_id === a.game_id)!;
        const e = g.events.find((x) => x.seq === a.seq)!;
        expect(e.type).toBe('action_resolved');
        if (e.type !== 'action_resolved') continue;
        expect(e.payload.actor_player_id).toBe(a.actor_player_id);
        expect(e.payload.manipulation_outcome).toBe(a.outcome);
        const seats = g.seats as string[];
        expect(seats[Number(a.actor_player_id.slice(4)) - 1]).toBe(a.agent);
        expect(seats[Number(a.target_player_id.slice(4)) - 1]).toBe(a.target);
      }
    }
  });

  it('is the same from a spectator’s projection of the ended games: it holds nothing hidden from them', () => {
    const rows = logs.flatMap((g) => attackRows(g.game_id!, g.events.map((e) => viewEvent(e, { role: 'spectator' }, true)), g.seats as string[]));
    expect(attackMatrix(rows)).toEqual(report.attacks);
  });
});
