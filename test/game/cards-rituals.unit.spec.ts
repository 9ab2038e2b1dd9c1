import { describe, expect, it } from 'vitest';
import { act, activate, atAction, eventsOf, finishActions, giveCard, nextRound, onlyEvent, placeArena, play, resolutionOf, seat, setSeat, submittedId } from '../support/scenario.js';

describe('Slow Burn: 2 tempo ritual, countdown 3, then every opponent −2 resolve and tilt +0.1', () => {
  it('when plr_1 lays a Slow Burn in round 1, then it counts down at each upkeep and fires at the upkeep of round 4', () => {
    const state = atAction(3);
    setSeat(state, 'plr_1', { tempo: 2 });
    const burn = giveCard(state, 'plr_1', 'Slow Burn');
    const id = submittedId(act(state, 'plr_1', play(burn)));
    expect(seat(state, 'plr_1').tempo).toBe(0);
    resolutionOf(finishActions(state), id);
    expect(state.arena).toEqual([{ card_id: burn, owner: 'plr_1', face_down: false, rounds_left: null, countdown: 3, chosen_emotion: null }]);
    nextRound(state); // → round 2
    expect(state.arena[0]?.countdown).toBe(2);
    nextRound(state); // → round 3
    expect(state.arena[0]?.countdown).toBe(1);
    setSeat(state, 'plr_2', { resolve: 12 });
    setSeat(state, 'plr_3', { resolve: 12 });
    const fired = onlyEvent(nextRound(state), 'ritual_fired'); // → round 4
    expect(fired.payload.owner_player_id).toBe('plr_1');
    expect(fired.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -2, plr_3: -2 });
    expect(fired.payload.tactical_effect.card_moves).toEqual([{ card_id: burn, from: 'arena:plr_1', to: 'discard', reason: 'ritual_fired' }]);
    expect(fired.payload.affective_effect?.emotion_delta).toEqual({ plr_2: { tilt: 0.1 }, plr_3: { tilt: 0.1 } });
    expect([seat(state, 'plr_2').resolve, seat(state, 'plr_3').resolve]).toEqual([10, 10]);
    expect(seat(state, 'plr_2').impacts).toEqual({ tilt: 0.1 }); // lands at this round's reflect
    expect(state.arena).toEqual([]);
  });

  it('given a Slow Burn at countdown 1 whose opponent is eliminated, then only alive opponents burn', () => {
    const state = atAction(3);
    placeArena(state, 'plr_1', 'Slow Burn', { countdown: 1 });
    setSeat(state, 'plr_3', { alive: false });
    const fired = onlyEvent(nextRound(state), 'ritual_fired');
    expect(Object.keys(fired.payload.tactical_effect.resolve_delta)).toEqual(['plr_2']);
  });
});

describe('Rebuild: 1 tempo ritual, countdown 2, then +5 resolve (cap 12) and confidence +0.2', () => {
  it('when plr_1 lays a Rebuild in round 1, then at the upkeep of round 3 it heals after the drift and lifts confidence', () => {
    const state = atAction(2);
    const rebuild = giveCard(state, 'plr_1', 'Rebuild');
    const id = submittedId(act(state, 'plr_1', play(rebuild)));
    resolutionOf(finishActions(state), id);
    expect(state.arena[0]).toMatchObject({ card_id: rebuild, countdown: 2 });
    nextRound(state);
    setSeat(state, 'plr_1', { resolve: 5 });
    const events = nextRound(state);
    const fired = onlyEvent(events, 'ritual_fired');
    expect(eventsOf(events, 'upkeep_applied')[0]!.seq).toBeLessThan(fired.seq);
    expect(fired.payload.tactical_effect.resolve_delta).toEqual({ plr_1: 5 }); // 5 → 6 (drift) → 11
    expect(fired.payload.affective_effect?.emotion_delta).toEqual({ plr_1: { confidence: 0.2 } });
    expect(seat(state, 'plr_1').resolve).toBe(11);
  });

  it('given plr_1 at resolve 9, when Rebuild fires, then resolve stops at 12', () => {
    const state = atAction(2);
    placeArena(state, 'plr_1', 'Rebuild', { countdown: 1 });
    setSeat(state, 'plr_1', { resolve: 9 });
    const fired = onlyEvent(nextRound(state), 'ritual_fired');
    expect(fired.payload.tactical_effect.resolve_delta).toEqual({ plr_1: 2 });
    expect(seat(state, 'plr_1').resolve).toBe(12);
  });
});

describe('activate: hastening an own ritual (1 tempo, countdown −1)', () => {
  it('given a Rebuild at countdown 2, when plr_1 hastens it, then it is at 1 after resolve and fires at the next upkeep', () => {
    const state = atAction(2);
    setSeat(state, 'plr_1', { tempo: 1, resolve: 6 });
    const rebuild = placeArena(state, 'plr_1', 'Rebuild', { countdown: 2 });
    const id = submittedId(act(state, 'plr_1', activate(rebuild)));
    expect(seat(state, 'plr_1').tempo).toBe(0);
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.card_moves).toEqual([
      { card_id: rebuild, from: 'arena:plr_1', to: 'arena:plr_1', reason: 'hasten', arena: { face_down: false, rounds_left: null, countdown: 1, chosen_emotion: null } },
    ]);
    expect(r.payload.attack_plan).toBeNull();
    expect(state.arena).toEqual([{ card_id: rebuild, owner: 'plr_1', face_down: false, rounds_left: null, countdown: 1, chosen_emotion: null }]);
    expect(onlyEvent(nextRound(state), 'ritual_fired').payload.card.card_id).toBe(rebuild);
  });

  it('given a Slow Burn at countdown 3 hastened, then it fires one round early (upkeep of round 3)', () => {
    const state = atAction(2);
    const burn = placeArena(state, 'plr_1', 'Slow Burn', { countdown: 3 });
    act(state, 'plr_1', activate(burn));
    finishActions(state);
    expect(eventsOf(nextRound(state), 'ritual_fired')).toHaveLength(0);
    expect(onlyEvent(nextRound(state), 'ritual_fired').turn).toBe(3);
  });

  it('given a Rebuild at countdown 1, when plr_1 hastens it, then it fires right after that resolution', () => {
    const state = atAction(2);
    setSeat(state, 'plr_1', { tempo: 1, resolve: 4 });
    const rebuild = placeArena(state, 'plr_1', 'Rebuild', { countdown: 1 });
    const id = submittedId(act(state, 'plr_1', activate(rebuild)));
    const events = finishActions(state);
    const resolved = resolutionOf(events, id);
    const fired = onlyEvent(events, 'ritual_fired');
    expect(fired.seq).toBe(resolved.seq + 1);
    expect(fired.payload.tactical_effect.resolve_delta).toEqual({ plr_1: 5 });
    expect(state.arena).toEqual([]);
  });
});
