import { describe, expect, it } from 'vitest';
import { leader, leaderWords, type Standing } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

const NAMES: Record<string, string> = { plr_1: 'Ada', plr_2: 'Bo', plr_3: 'Cy' };
const name = (id: string) => NAMES[id] ?? 'a seat';
const seat = (player_id: string, lives: number, resolve: number, alive = true): Standing => ({
  player_id,
  alive,
  lives,
  resolve,
});
const say = (players: Standing[]) => leaderWords(leader(players), name);

describe('leader: who is ahead, in words', () => {
  it('reads lives first, then resolve, among the seats still in; a tie at the top is level', () => {
    expect(say([seat('plr_1', 2, 9), seat('plr_2', 1, 14), seat('plr_3', 1, 3)])).toBe(
      'Ada leads, 2 lives to 1',
    );
    expect(say([seat('plr_1', 1, 9), seat('plr_2', 1, 14), seat('plr_3', 1, 3)])).toBe(
      'Bo leads on resolve, 14 to 9',
    );
    expect(say([seat('plr_1', 2, 12), seat('plr_2', 2, 12), seat('plr_3', 1, 3)])).toBe(
      'level at the top: Ada and Bo',
    );
    expect(say([seat('plr_1', 2, 12), seat('plr_2', 2, 12), seat('plr_3', 2, 12)])).toBe('level');
    // An eliminated seat's counters do not count, however high.
    expect(say([seat('plr_1', 3, 20, false), seat('plr_2', 1, 4), seat('plr_3', 1, 3)])).toBe(
      'Bo leads on resolve, 4 to 3',
    );
    expect(say([seat('plr_1', 0, 0, false), seat('plr_2', 1, 4), seat('plr_3', 0, 0, false)])).toBe(
      'Bo is the last seat standing',
    );
    expect(say([])).toBe('no seat in play yet');
  });

  it('given a played game, then at every seq the leader is the one living seat with the most lives, then resolve, and the words change as the game goes', () => {
    const { states } = playGame({
      seed: 777_005,
      seats: 4,
      round_cap: 16,
      compact: false,
      driver: 9,
    });
    const said = new Set<string>();
    for (const s of states) {
      const players = s.players;
      const l = leader(players);
      const alive = players.filter((p) => p.alive);
      if (alive.length === 0) {
        expect(l).toBeNull();
        continue;
      }
      const best = Math.max(...alive.map((p) => p.lives * 1000 + p.resolve));
      const top = alive.filter((p) => p.lives * 1000 + p.resolve === best);
      if (top.length > 1)
        expect(l).toMatchObject({
          kind: 'level',
          player_ids: expect.arrayContaining(top.map((p) => p.player_id)),
        });
      else expect(l).toMatchObject({ kind: 'leads', player_id: top[0]!.player_id });
      said.add(leaderWords(l, (id) => players.find((p) => p.player_id === id)!.display_name));
    }
    expect(said.size).toBeGreaterThan(3);
    for (const w of said) expect(w).not.toMatch(/plr_/);
  });
});
