import { describe, expect, it } from 'vitest';
import { allCardLocations, requestFor } from '../../src/game/index.js';
import { placements } from '../../src/game/end.js';
import { atAction, eventsOf, finishActions, nextRound, newGame, onlyEvent, placeArena, playOut, seat, setHand, setSeat } from '../support/scenario.js';

describe('end: a seat at resolve ≤ 0 loses a life', () => {
  it('given plr_1 at resolve 0 with 3 lives, when the round ends, then 2 lives, resolve 8, its hand discarded, 4 new cards, shame/fear/tilt up', () => {
    const state = atAction(3);
    const hand = setHand(state, 'plr_1', ['Needle', 'Feint']);
    setSeat(state, 'plr_1', { resolve: 0, emotions: { shame: 0.5, fear: 0, tilt: 0.1 } });
    finishActions(state);
    const before = { ...seat(state, 'plr_1').emotions }; // after this round's reflect
    const events = nextRound(state);
    const lost = onlyEvent(events, 'life_lost');
    expect(lost.payload).toMatchObject({ player_id: 'plr_1', lives_left: 2, resolve_after: 8 });
    expect(lost.payload.discarded.map((c) => c.card_id)).toEqual(hand);
    const redraw = eventsOf(events, 'cards_drawn').find((e) => e.payload.reason === 'life_lost')!;
    expect(redraw.payload).toMatchObject({ player_id: 'plr_1', count: 4 });
    const felt = eventsOf(events, 'emotion_updated').find((e) => e.payload.reason === 'life_lost')!;
    expect(felt.payload.emotions?.shame).toBeCloseTo(before.shame + 0.2, 4);
    expect(felt.payload.emotions?.fear).toBeCloseTo(before.fear + 0.1, 4);
    expect(felt.payload.emotions?.tilt).toBeCloseTo(before.tilt + 0.15, 4);
    expect(seat(state, 'plr_1')).toMatchObject({ lives: 2, alive: true });
    expect(seat(state, 'plr_1').resolve).toBe(9); // 8, then upkeep drift +1
    expect(seat(state, 'plr_1').hand).toHaveLength(6); // 4, then draw 2
    expect(state.discard).toEqual(expect.arrayContaining(hand));
  });

  it('given shame 0.9, when a life is lost, then shame is clamped at 1', () => {
    const state = atAction(2);
    setSeat(state, 'plr_1', { resolve: -3, emotions: { shame: 0.95 } });
    const events = finishActions(state);
    setSeat(state, 'plr_1', { emotions: { shame: 0.95 } });
    const felt = eventsOf([...events, ...nextRound(state)], 'emotion_updated').find((e) => e.payload.reason === 'life_lost')!;
    expect(felt.payload.emotions?.shame).toBe(1);
  });
});

describe('end: at 0 lives a seat is eliminated', () => {
  it('given plr_2 on its last life at resolve −1, when the round ends, then it is eliminated, its hand and arena go to the discard, and it never acts again', () => {
    const state = atAction(3);
    setSeat(state, 'plr_2', { lives: 1, resolve: -1 });
    const mask = placeArena(state, 'plr_2', 'Poker Face');
    finishActions(state);
    const events = nextRound(state);
    expect(onlyEvent(events, 'life_lost').payload).toMatchObject({ player_id: 'plr_2', lives_left: 0 });
    expect(onlyEvent(events, 'player_eliminated').payload.discarded.map((c) => c.card_id)).toEqual([mask]);
    expect(seat(state, 'plr_2')).toMatchObject({ alive: false, lives: 0, hand: [], eliminated_turn: 1 });
    expect(state.discard).toContain(mask);
    expect(state.initiative_order).not.toContain('plr_2');
    expect(state.window?.queue).not.toContain('plr_2');
    expect(eventsOf(events, 'game_ended')).toHaveLength(0);
    expect(new Set(allCardLocations(state)).size).toBe(120);
    expect(requestFor(state, 'plr_1').legal_actions).toBeDefined();
  });

  it('given only one seat left standing, then the game ends with it first', () => {
    const state = atAction(2);
    setSeat(state, 'plr_2', { lives: 1, resolve: 0 });
    finishActions(state);
    const ended = onlyEvent(nextRound(state), 'game_ended');
    expect(ended.payload).toMatchObject({ reason: 'last_seat_standing', rounds: 1 });
    expect(ended.payload.placements.map((p) => [p.player_id, p.placement])).toEqual([['plr_1', 1], ['plr_2', 2]]);
    expect(state.status).toBe('done');
  });

  it('given every seat falls in the same round, then the game ends with nobody standing, tied by their records', () => {
    const state = atAction(2);
    setSeat(state, 'plr_1', { lives: 1, resolve: 0 });
    setSeat(state, 'plr_2', { lives: 1, resolve: 0 });
    finishActions(state);
    const ended = onlyEvent(nextRound(state), 'game_ended');
    expect(ended.payload.reason).not.toBe('round_cap');
    expect(ended.payload.placements.every((p) => !p.alive)).toBe(true);
  });
});

describe('end: the round cap ends the game', () => {
  it('given round_cap 3, when three rounds are played, then game_ended (round_cap) after round 3', () => {
    const state = newGame({ seats: 3, rules: { round_cap: 3 } });
    const events = playOut(state);
    const ended = onlyEvent(events, 'game_ended');
    expect(ended.payload).toMatchObject({ reason: 'round_cap', rounds: 3 });
    expect(ended.turn).toBe(3);
    expect(state.status).toBe('done');
  });

  it('given the default rules, then the cap is 30 rounds', () => {
    const state = newGame({ seats: 2 });
    playOut(state);
    expect(state.turn).toBe(30);
  });
});

describe('placements: alive first, then lives, resolve, tempo (desc), exposure (asc); exact ties share', () => {
  it('given seats differing at each key, then they are ordered key by key', () => {
    const state = newGame({ seats: 6 });
    const set = (id: string, alive: boolean, lives: number, resolve: number, tempo: number, exposure: number, eliminated_turn: number | null = null) =>
      Object.assign(seat(state, id), { alive, lives, resolve, tempo, exposure, eliminated_turn });
    set('plr_1', true, 1, 5, 0, 0);
    set('plr_2', true, 2, 3, 0, 0);
    set('plr_3', true, 2, 3, 4, 2);
    set('plr_4', true, 2, 3, 4, 1);
    set('plr_5', false, 0, -2, 9, 0, 4);
    set('plr_6', true, 2, 7, 0, 0);
    expect(placements(state).map((p) => [p.player_id, p.placement])).toEqual([
      ['plr_6', 1], ['plr_4', 2], ['plr_3', 3], ['plr_2', 4], ['plr_1', 5], ['plr_5', 6],
    ]);
  });

  it('given two exact ties, then they share a placement and the next one skips', () => {
    const state = newGame({ seats: 4 });
    for (const p of state.players) Object.assign(p, { resolve: 10, tempo: 2, exposure: 1 });
    seat(state, 'plr_3').resolve = 12;
    seat(state, 'plr_4').resolve = 5;
    expect(placements(state).map((p) => [p.player_id, p.placement])).toEqual([
      ['plr_3', 1], ['plr_1', 2], ['plr_2', 2], ['plr_4', 4],
    ]);
  });

  it('given two eliminated seats, then the later elimination ranks higher (a tie-break the brief leaves open)', () => {
    const state = newGame({ seats: 3 });
    Object.assign(seat(state, 'plr_1'), { alive: false, lives: 0, eliminated_turn: 2 });
    Object.assign(seat(state, 'plr_2'), { alive: false, lives: 0, eliminated_turn: 5 });
    expect(placements(state).map((p) => p.player_id)).toEqual(['plr_3', 'plr_2', 'plr_1']);
  });
});
