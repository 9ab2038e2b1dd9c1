import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { viewEvent, type Viewer } from '../../src/game/index.js';
import { gameResult } from '../../src/view/index.js';
import { playGame } from '../support/played-game.js';

/** A game long enough for seats to go out: six seats, round cap 12. */
const { events } = playGame({ seed: 424_242, seats: 6, round_cap: 12, compact: false, driver: 3 });
const spectator: Viewer = { role: 'spectator' };
const as = (v: Viewer, upTo = events.length): GameEvent[] => events.slice(0, upTo).map((e) => viewEvent(e, v));
const ended = events.find((e): e is Extract<GameEvent, { type: 'game_ended' }> => e.type === 'game_ended')!;

describe('gameResult', () => {
  it('given a log without game_ended (a replay before its end), then there is no result yet', () => {
    expect(gameResult(as(spectator, ended.seq - 1))).toBeNull();
  });

  it('given an ended game as a spectator sees it, then placements are game_ended’s and every eliminated seat has its round and final blow', () => {
    const r = gameResult(as(spectator))!;
    expect(r.seq).toBe(ended.seq);
    expect(r.reason).toBe(ended.payload.reason);
    expect(r.rounds).toBe(ended.payload.rounds);
    expect(r.seats.map((s) => [s.player_id, s.placement, s.alive])).toEqual(ended.payload.placements.map((p) => [p.player_id, p.placement, p.alive]));
    const eliminated = events.filter((e): e is Extract<GameEvent, { type: 'player_eliminated' }> => e.type === 'player_eliminated');
    expect(eliminated.length).toBeGreaterThan(0);
    for (const e of eliminated) {
      const seat = r.seats.find((s) => s.player_id === e.payload.player_id)!;
      expect(seat.alive).toBe(false);
      expect(seat.out).toMatchObject({ turn: e.turn, seq: e.seq });
      // Resolve only drops through the four kinds of effect: something took the last of it.
      expect(seat.out!.blow).not.toBeNull();
      if (seat.out!.blow!.kind === 'attack' || seat.out!.blow!.kind === 'ritual') expect(seat.out!.blow!.by).toMatch(/^plr_\d$/);
    }
    for (const s of r.seats.filter((x) => x.alive)) expect(s.out).toBeNull();
  });
});
