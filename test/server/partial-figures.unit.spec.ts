import { describe, expect, it } from 'vitest';
import { viewEvent } from '../../src/game/index.js';
import { buildSeats, seatConfigs } from '../../src/runner/lineup.js';
import { playGame } from '../../src/runner/play-game.js';
import { SimStats } from '../../src/runner/sim-stats.js';
import { maskHidden } from '../../src/server/games/partial-figures.js';

const agents = ['aggressor', 'manipulator', 'trickster', 'turtle'];

async function figuresAs(gameOver: boolean) {
  const run = await playGame({ seats: seatConfigs(agents), rules: {} }, 7, buildSeats(agents, 7));
  const events = run.events.map((e) => viewEvent(e, { role: 'researcher' }, gameOver));
  const stats = new SimStats();
  stats.add({ events, decisions: run.decisions.length, agents });
  const full = new SimStats();
  full.add({ events: run.events, decisions: run.decisions.length, agents });
  return { masked: maskHidden(stats.figures(), events), full: full.figures() };
}

describe('analytics of a running game: hidden inputs give unknown figures, not zeros', () => {
  it('a researcher while the game runs: attacks, card shares and emotion coupling are null and named', async () => {
    const { masked, full } = await figuresAs(false);
    // The game had attacks: the projection's 0 would have been a lie.
    expect(Object.values(full.byAgent).some((a) => a.attacks > 0)).toBe(true);
    expect(masked.unknown).toEqual(['cardPlays', 'cardTypeShare', 'byAgent.*.attacks', 'emotionCoupling']);
    for (const a of Object.values(masked.figures.byAgent)) expect(a.attacks).toBeNull();
    expect(masked.figures.cardTypeShare).toBeNull();
    expect(masked.figures.emotionCoupling).toBeNull();
    // What the public table shows stays: placements and wins.
    expect(masked.figures.seatWinRate).toEqual(full.seatWinRate);
  });

  it('once the game is over nothing is hidden: the figures are the full ones', async () => {
    const { masked, full } = await figuresAs(true);
    expect(masked.unknown).toEqual([]);
    expect(masked.figures).toEqual(full);
  });
});
