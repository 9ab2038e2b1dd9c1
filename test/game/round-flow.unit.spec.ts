import { describe, expect, it } from 'vitest';
import { allCardLocations } from '../../src/game/index.js';
import { driveTo, eventsOf, newGame, nextRound, onlyEvent, placeArena, seat, setSeat } from '../support/scenario.js';

describe('the round: eight phases in order', () => {
  it('given round 1, when every seat answers defaults, then the phases run upkeep → … → end → upkeep of round 2', () => {
    const state = newGame({ seats: 2 });
    const events = nextRound(state);
    const phases = eventsOf(events, 'phase_changed').map((e) => `${e.payload.turn}:${e.payload.phase}`);
    expect(phases).toEqual(['1:talk', '1:action', '1:resolve', '1:reflect', '1:end', '2:upkeep', '2:draw', '2:intent']);
  });

  it('given reflect_window false, then no reflect decision is asked but the reflect step still updates emotions', () => {
    const state = newGame({ seats: 2, rules: { reflect_window: false } });
    driveTo(state, 'action');
    const events = nextRound(state);
    expect(eventsOf(events, 'reflection_recorded')).toHaveLength(0);
    expect(eventsOf(events, 'emotion_updated')).toHaveLength(2);
  });
});

describe('upkeep', () => {
  it('given resolve below, at and above baseline, when upkeep runs, then resolve drifts 1 toward 12', () => {
    const state = newGame({ seats: 3 });
    setSeat(state, 'plr_1', { resolve: 5 });
    setSeat(state, 'plr_2', { resolve: 12 });
    setSeat(state, 'plr_3', { resolve: 14 });
    const up = onlyEvent(nextRound(state), 'upkeep_applied');
    expect(up.payload.resolve_delta).toEqual({ plr_1: 1, plr_3: -1 });
    expect([5, 12, 14].map((_, i) => seat(state, `plr_${i + 1}`).resolve)).toEqual([6, 12, 13]);
  });

  it('given tempo 10, 9 and 0, when upkeep runs, then each gains 1 up to the cap 10', () => {
    const state = newGame({ seats: 3 });
    setSeat(state, 'plr_1', { tempo: 10 });
    setSeat(state, 'plr_2', { tempo: 9 });
    setSeat(state, 'plr_3', { tempo: 0 });
    const up = onlyEvent(nextRound(state), 'upkeep_applied');
    expect(up.payload.tempo_delta).toEqual({ plr_2: 1, plr_3: 1 });
    expect(state.players.map((p) => p.tempo)).toEqual([10, 10, 1]);
  });

  it('given arena cards with clocks, when upkeep runs, then durations and countdowns tick and an expired card is discarded', () => {
    const state = newGame({ seats: 2 });
    const fresh = placeArena(state, 'plr_1', 'Poker Face', { rounds_left: 2 });
    const last = placeArena(state, 'plr_1', 'Composure', { rounds_left: 0 });
    const ritual = placeArena(state, 'plr_2', 'Rebuild', { countdown: 2 });
    const trap = placeArena(state, 'plr_2', 'Snare');
    const up = onlyEvent(nextRound(state), 'upkeep_applied');
    expect(up.payload.arena_ticks).toEqual([
      { card_id: fresh, rounds_left: 1, countdown: null },
      { card_id: last, rounds_left: -1, countdown: null },
      { card_id: ritual, rounds_left: null, countdown: 1 },
    ]);
    expect(up.payload.card_moves).toEqual([{ card_id: last, from: 'arena:plr_1', to: 'discard', reason: 'expired' }]);
    expect(state.arena.map((a) => a.card_id)).toEqual([fresh, ritual, trap]);
    expect(state.discard).toContain(last);
  });

  it('given a lockout and a forced line set last round, when upkeep runs, then they take effect for this round only', () => {
    const state = newGame({ seats: 3 });
    setSeat(state, 'plr_1', { next_lockout: true });
    setSeat(state, 'plr_2', { next_forced_line: 'plr_3' });
    const up = onlyEvent(nextRound(state), 'upkeep_applied');
    expect(up.payload.locked_out).toEqual(['plr_1']);
    expect(up.payload.forced_lines).toEqual({ plr_2: 'plr_3' });
    expect(seat(state, 'plr_1')).toMatchObject({ locked_out: true, next_lockout: false });
    expect(seat(state, 'plr_2')).toMatchObject({ forced_line: 'plr_3', next_forced_line: null });
    // and the round after, they have expired
    nextRound(state);
    expect(seat(state, 'plr_1').locked_out).toBe(false);
    expect(seat(state, 'plr_2').forced_line).toBeNull();
  });
});

describe('draw', () => {
  it('given 3 alive seats, when the draw phase runs, then each draws 2 from the top of the deck in initiative order', () => {
    const state = newGame({ seats: 3 });
    const top = state.deck.slice(0, 6);
    const events = nextRound(state);
    const draws = eventsOf(events, 'cards_drawn');
    expect(draws.map((e) => e.payload.player_id)).toEqual(state.initiative_order);
    expect(draws.flatMap((e) => e.payload.cards)).toEqual(top);
  });

  it('given a hand of 7, when it draws 2, then the oldest card beyond the cap of 8 is discarded', () => {
    const state = newGame({ seats: 2 });
    const p = seat(state, 'plr_1');
    expect(p.hand).toHaveLength(7);
    const oldest = p.hand[0]!;
    const events = nextRound(state);
    const shed = eventsOf(events, 'cards_discarded');
    expect(shed.map((e) => [e.payload.player_id, e.payload.reason, e.payload.cards.map((c) => c.card_id)])).toEqual(
      expect.arrayContaining([['plr_1', 'hand_cap', [oldest]]]),
    );
    expect(p.hand).toHaveLength(8);
    expect(state.discard).toContain(oldest);
  });

  it('given a deck of 1 card, when a seat draws 2, then the discard is reshuffled (seeded) into the deck and the draw goes on', () => {
    const state = newGame({ seats: 2 });
    const lastCard = state.deck[0]!;
    state.discard.push(...state.deck.slice(1));
    state.deck = [lastCard];
    const discardBefore = [...state.discard];
    const events = nextRound(state);
    const reshuffle = onlyEvent(events, 'deck_reshuffled');
    expect([...reshuffle.payload.order!].sort()).toEqual([...discardBefore].sort());
    expect(reshuffle.rng).toBeDefined();
    const first = eventsOf(events, 'cards_drawn')[0]!;
    expect(first.payload.cards).toEqual([lastCard]);
    expect(new Set(allCardLocations(state)).size).toBe(120);
    expect(allCardLocations(state)).toHaveLength(120);
  });

  it('given an empty deck and an empty discard, when seats draw, then they draw nothing and nothing breaks', () => {
    const state = newGame({ seats: 2 });
    // park every free card in plr_2's arena so neither pile has cards
    for (const c of [...state.deck, ...state.discard]) state.arena.push({ card_id: c, owner: 'plr_2', face_down: false, rounds_left: null, countdown: null, chosen_emotion: null });
    state.deck = [];
    state.discard = [];
    const events = nextRound(state);
    expect(eventsOf(events, 'cards_drawn')).toHaveLength(0);
    expect(state.turn).toBe(2);
  });
});
