import { describe, expect, it } from 'vitest';
import { CATALOG, CATALOG_SIZE, ConfigError, allCardLocations, initialState, stepInPlace } from '../../src/game/index.js';
import { eventsOf, newGame, nextRound, okEvents, onlyEvent, playOut, seat, setSeat } from '../support/scenario.js';

describe('setup: seats, counters and the deck', () => {
  it('given the default config, when the game starts, then 4 seats get lives 3, resolve 12, tempo 0, exposure 0 and 5 cards', () => {
    const state = initialState({}, 7);
    const events = okEvents(stepInPlace(state, { type: 'start' }));
    const started = onlyEvent(events, 'game_started');
    expect(started.payload.players).toHaveLength(4);
    const opening = eventsOf(events, 'cards_drawn').filter((e) => e.payload.reason === 'opening');
    expect(opening.map((e) => e.payload.count)).toEqual([5, 5, 5, 5]);
    // then upkeep of round 1 gives every seat its first tempo, and draw adds 2 cards
    for (const p of state.players) {
      expect(p).toMatchObject({ lives: 3, resolve: 12, tempo: 1, exposure: 0, alive: true });
      expect(p.hand).toHaveLength(7);
    }
    expect(state.deck).toHaveLength(120 - 4 * 7);
    expect(state.turn).toBe(1);
  });

  it('given a seat, then its emotions start at the default baseline (confidence 0.2), trust 0.2 toward every other seat, grievance 0', () => {
    const state = newGame({ seats: 3 });
    const p = seat(state, 'plr_2');
    expect(p.emotions).toEqual({ valence: 0, arousal: 0, dominance: 0, fear: 0, anger: 0, shame: 0, confidence: 0.2, greed: 0, tilt: 0 });
    expect(p.trust).toEqual({ plr_1: 0.2, plr_3: 0.2 });
    expect(p.grievance).toEqual({ plr_1: 0, plr_3: 0 });
  });

  it('given a personality baseline in the seat config, then the seat starts on it', () => {
    const state = initialState({ seats: [{ baseline: { anger: 0.3 } }, { display_name: 'Bo' }] }, 1);
    stepInPlace(state, { type: 'start' });
    expect(seat(state, 'plr_1').emotions).toMatchObject({ anger: 0.3, confidence: 0.2 });
    expect(seat(state, 'plr_2').display_name).toBe('Bo');
  });

  it('the catalog has the 17 cards of the brief, 120 in all, and a started game deals exactly those 120 ids', () => {
    const counts = Object.fromEntries(CATALOG.map((c) => [c.name, c.count]));
    expect(counts).toEqual({
      Feint: 10, Overreach: 8, Sever: 6, Strip: 6, Brace: 10, Riposte: 5, Composure: 5, Snare: 8, Tell: 6, Lockjaw: 6,
      'Poker Face': 8, 'False Tell': 7, Needle: 10, Humiliate: 7, Whisper: 8, 'Slow Burn': 5, Rebuild: 5,
    });
    expect(CATALOG_SIZE).toBe(120);
    const state = newGame({ seats: 6 });
    const ids = allCardLocations(state);
    expect(new Set(ids).size).toBe(120);
    expect(Object.keys(state.cards).sort()).toEqual([...ids].sort());
    const dealt: Record<string, number> = {};
    for (const name of Object.values(state.cards)) dealt[name] = (dealt[name] ?? 0) + 1;
    expect(dealt).toEqual(counts);
  });

  it.each([1, 7])('given %i seats, then initialState throws a ConfigError (2–6 seats)', (seats) => {
    expect(() => initialState({ seats }, 1)).toThrow(ConfigError);
  });

  it.each([2, 6])('given %i seats, then the game starts', (seats) => {
    expect(newGame({ seats }).players).toHaveLength(seats);
  });

  it('given an unsafe seed or a bad rules value, then initialState throws a ConfigError', () => {
    expect(() => initialState({}, 1.5)).toThrow(ConfigError);
    expect(() => initialState({ rules: { round_cap: 0 } }, 1)).toThrow(ConfigError);
  });
});

describe('setup: the base initiative order is a seeded shuffle', () => {
  it('given the same seed, then the same base order and deck; given other seeds, other orders', () => {
    const a = newGame({ seats: 6, seed: 11 });
    const b = newGame({ seats: 6, seed: 11 });
    expect(a.base_order).toEqual(b.base_order);
    expect(a.deck).toEqual(b.deck);
    expect([...a.base_order].sort()).toEqual(['plr_1', 'plr_2', 'plr_3', 'plr_4', 'plr_5', 'plr_6']);
    const orders = new Set(Array.from({ length: 12 }, (_, i) => newGame({ seats: 6, seed: 100 + i }).base_order.join()));
    expect(orders.size).toBeGreaterThan(1);
  });
});

describe('initiative: tempo desc, ties by the base order rotated by the round number', () => {
  it('given equal tempo, when round 2 begins, then the order is the base order rotated by 2', () => {
    const state = newGame({ seats: 4 });
    state.base_order = ['plr_1', 'plr_2', 'plr_3', 'plr_4'];
    const events = nextRound(state);
    expect(onlyEvent(events, 'upkeep_applied').payload.initiative_order).toEqual(['plr_3', 'plr_4', 'plr_1', 'plr_2']);
  });

  it('given round 1, then the order is the base order rotated by 1', () => {
    const state = newGame({ seats: 3, seed: 1 });
    const b = state.base_order;
    expect(state.initiative_order).toEqual([b[1], b[2], b[0]]);
  });

  it('given different tempo, when the round begins, then higher tempo acts first and ties keep the rotated order', () => {
    const state = newGame({ seats: 4 });
    state.base_order = ['plr_1', 'plr_2', 'plr_3', 'plr_4'];
    // rotation for round 2 is [3, 4, 1, 2]; plr_2 and plr_1 lead on tempo
    setSeat(state, 'plr_2', { tempo: 5 });
    setSeat(state, 'plr_1', { tempo: 5 });
    setSeat(state, 'plr_4', { tempo: 3 });
    setSeat(state, 'plr_3', { tempo: 0 });
    const events = nextRound(state);
    expect(onlyEvent(events, 'upkeep_applied').payload.initiative_order).toEqual(['plr_1', 'plr_2', 'plr_4', 'plr_3']);
    expect(state.window?.queue).toEqual(['plr_1', 'plr_2', 'plr_4', 'plr_3']);
  });

  it('given an eliminated seat, then it is left out of the order', () => {
    const state = newGame({ seats: 3 });
    setSeat(state, 'plr_2', { alive: false });
    const events = nextRound(state);
    expect(onlyEvent(events, 'upkeep_applied').payload.initiative_order).not.toContain('plr_2');
  });
});

describe('engine inputs that are refused outright', () => {
  it('given a started game, when it is started again, then game/already_started', () => {
    const state = newGame();
    const r = stepInPlace(state, { type: 'start' });
    expect(r.ok || r.rejection.code).toBe('game/already_started');
  });

  it('given a game in setup, when a decision arrives, then game/not_started and nothing changes', () => {
    const state = initialState({ seats: 2 }, 1);
    const before = structuredClone(state);
    const r = stepInPlace(state, { type: 'decision', player_id: 'plr_1', window: 'intent', decision: {} });
    expect(r.ok || r.rejection.code).toBe('game/not_started');
    expect(state).toEqual(before);
  });

  it.each([null, 42, 'start', { type: 'nope' }, { type: 'decision', player_id: 'bob', window: 'intent' }, { type: 'decision', player_id: 'plr_1', window: 'lunch' }])(
    'given the malformed input %j, then input/malformed',
    (input) => {
      const state = newGame();
      const before = structuredClone(state);
      const r = stepInPlace(state, input);
      expect(r.ok || r.rejection.code).toBe('input/malformed');
      expect(state).toEqual(before);
    },
  );

  it('given the intent window, when an unknown or dead seat answers, then turn/not_awaited; the wrong window, turn/wrong_window', () => {
    const state = newGame({ seats: 3 });
    const before = structuredClone(state);
    const r1 = stepInPlace(state, { type: 'decision', player_id: 'plr_9', window: 'intent', decision: {} });
    const r2 = stepInPlace(state, { type: 'decision', player_id: 'plr_1', window: 'action', decision: {} });
    expect(r1.ok || r1.rejection.code).toBe('turn/not_awaited');
    expect(r2.ok || r2.rejection.code).toBe('turn/wrong_window');
    expect(state).toEqual(before);
  });

  it('given a finished game, when anything arrives, then game/over', () => {
    const state = newGame({ seats: 2, rules: { round_cap: 1 } });
    playOut(state);
    expect(state.status).toBe('done');
    for (const input of [{ type: 'start' }, { type: 'decision', player_id: 'plr_1', window: 'action', decision: {} }]) {
      const r = stepInPlace(state, input);
      expect(r.ok || r.rejection.code).toBe('game/over');
    }
  });
});

describe('setup: display names', () => {
  it('given two seats named alike, or one name inside another, then the config is refused (the betrayal cue reads names)', async () => {
    const { initialState: init, ConfigError } = await import('../../src/game/index.js');
    expect(() => init({ seats: [{ display_name: 'Ann' }, { display_name: 'Ann' }] }, 1)).toThrow(ConfigError);
    expect(() => init({ seats: [{ display_name: 'balanced' }, { display_name: 'balanced 2' }] }, 1)).toThrow(/none may contain another/);
    expect(() => init({ seats: [{ display_name: 'balanced 1' }, { display_name: 'balanced 2' }] }, 1)).not.toThrow();
  });
});
