import { describe, expect, it } from 'vitest';
import type { AgentName } from '../../src/agents/builtin/index.js';
import { runGame } from '../../src/runner/run-game.js';
import { agentBaseline, createAgent } from '../../src/agents/builtin/index.js';

/** Random's share of wins (placement 1, ties included) against three balanced seats, seats rotated. */
function randomWinRate(games: number, rules = {}): number {
  let wins = 0;
  for (let g = 0; g < games; g++) {
    const names: AgentName[] = ['random', 'balanced', 'balanced', 'balanced'].map((_, i, a) => a[(i + g) % 4] as AgentName);
    const seed = 777_000 + g;
    const run = runGame({ seats: names.map((n) => ({ baseline: agentBaseline(n) })), rules }, seed, names.map((n, i) => createAgent(n, seed, i)));
    const randomSeat = `plr_${names.indexOf('random') + 1}`;
    if (run.state.placements?.find((p) => p.player_id === randomSeat)?.placement === 1) wins++;
  }
  return wins / games;
}

describe('balanced is clearly stronger than random', () => {
  it('random wins at most 15 % against three balanced seats', () => {
    expect(randomWinRate(200)).toBeLessThanOrEqual(0.15);
  });

  // Compact windows answer reactions for every seat and reward the single-action play random falls
  // into, so balanced's edge is thin there (≈ 21 % for random over 400 games, parity is 25 %): this
  // asserts the edge exists. Widening it is agent work, noted on the engine issue.
  it('and in compact windows it still wins less than an equal share', () => {
    expect(randomWinRate(200, { windows: 'compact' })).toBeLessThan(0.25);
  });
});
