import { describe, expect, it } from 'vitest';
import { viewEvent, viewState, type Viewer } from '../../src/game/index.js';
import { statSeries } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const { events, states } = playGame({ seed: 777_005, seats: 4, round_cap: 16, compact: false, driver: 9 });

describe('statSeries: lives and resolve per seat over the game', () => {
  it('given a whole game as a spectator sees it, then every point equals the engine’s counters at that seq, and nothing that moved them is missed', () => {
    const spectator: Viewer = { role: 'spectator' };
    const s = statSeries(events.map((e) => viewEvent(e, spectator)));
    expect(s.seqs.length).toBeGreaterThan(50);
    s.seqs.forEach((seq, i) => {
      for (const p of states[seq]!.players) {
        expect(s.lives[p.player_id]![i], `lives ${p.player_id} @${seq}`).toBe(p.lives);
        expect(s.resolve[p.player_id]![i], `resolve ${p.player_id} @${seq}`).toBe(p.resolve);
      }
    });
    // Between two points no counter moves.
    for (let seq = s.seqs[0]!; seq < events.length; seq++) {
      const i = s.seqs.findLastIndex((x) => x <= seq);
      for (const p of states[seq]!.players) expect(s.resolve[p.player_id]![i], `resolve ${p.player_id} @${seq}`).toBe(p.resolve);
    }
  });

  it('given a seat’s view that starts after the deal, then it starts from the snapshot’s table', () => {
    const seat: Viewer = { role: 'seat', player_id: 'plr_2' };
    const start = viewState(states[40]!, seat).world.players;
    const s = statSeries(events.slice(40).map((e) => viewEvent(e, seat)), start, 40);
    expect(s.seqs[0]).toBe(40);
    const i = s.seqs.length - 1;
    for (const p of states.at(-1)!.players) expect([s.lives[p.player_id]![i], s.resolve[p.player_id]![i]]).toEqual([p.lives, p.resolve]);
  });
});
