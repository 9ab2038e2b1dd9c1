import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/game/index.js';
import { requestFor, worldView } from '../../src/game/index.js';
import {
  act, atAction, attack, finishActions, giveCard, neutral, okEvents, placeArena, play, resolutionOf, setSeat, submit, submittedId,
} from '../support/scenario.js';

/** What plr_2 reads off plr_1 (its public tell), both in the world view and in its beliefs. */
function tellSeenBy(state: GameState, viewer = 'plr_2') {
  const world = worldView(state, { role: 'seat', player_id: viewer }).players.find((p) => p.player_id === 'plr_1')!.tell;
  expect(requestFor(state, viewer).player_private_view.belief_state.tells.plr_1).toEqual(world);
  return world;
}

describe('tells: the dominant emotion from exposure 4, the whole vector from exposure 8', () => {
  const emotions = neutral({ anger: 0.5, fear: -0.6, confidence: 0.2 });

  it.each([
    [0, { dominant: null, vector: null, masked: false }],
    [3, { dominant: null, vector: null, masked: false }],
    [4, { dominant: 'fear', vector: null, masked: false }],
    [7, { dominant: 'fear', vector: null, masked: false }],
    [8, { dominant: 'fear', vector: emotions, masked: false }],
  ])('given plr_1 at exposure %i, then the others read %j', (exposure, tell) => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure, emotions });
    expect(tellSeenBy(state)).toEqual(tell);
  });

  it('given a tie in magnitude, then the dominant emotion is the first in schema order', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 4, emotions: neutral({ tilt: 0.4, arousal: -0.4 }) });
    expect(tellSeenBy(state).dominant).toBe('arousal');
  });
});

describe('Poker Face: 0 tempo mask, arena 2 rounds, exposure −3, tells hidden, resistance +0.15', () => {
  it('given plr_1 at exposure 5, when it plays Poker Face, then exposure drops to 2 and the mask lies face up for 2 rounds', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 5 });
    const mask = giveCard(state, 'plr_1', 'Poker Face');
    const id = submittedId(act(state, 'plr_1', play(mask)));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.exposure_delta).toEqual({ plr_1: -3 });
    expect(state.arena).toEqual([{ card_id: mask, owner: 'plr_1', face_down: false, rounds_left: 2, countdown: null, chosen_emotion: null }]);
    expect(state.players[0]!.exposure).toBe(2);
  });

  it('given plr_1 at exposure 1, when it plays Poker Face, then exposure stops at 0', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 1 });
    const id = submittedId(act(state, 'plr_1', play(giveCard(state, 'plr_1', 'Poker Face'))));
    expect(resolutionOf(finishActions(state), id).payload.tactical_effect.exposure_delta).toEqual({ plr_1: -1 });
  });

  it('given plr_1 at exposure 9 behind a Poker Face, then the others read nothing but that it is masked', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 9, emotions: neutral({ fear: 0.9 }) });
    placeArena(state, 'plr_1', 'Poker Face');
    expect(tellSeenBy(state)).toEqual({ dominant: null, vector: null, masked: true });
  });

  it('given plr_2 behind a Poker Face, when attacked, then resistance is 0.15 higher', () => {
    const state = atAction();
    placeArena(state, 'plr_2', 'Poker Face');
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    expect(resolutionOf(finishActions(state), id).payload.manipulation?.resistance).toBe(0.35);
  });
});

describe('False Tell: 0 tempo mask, face down, arena 2 rounds, the tell shows a chosen emotion, next manipulation vs owner −0.15', () => {
  // The engine lays False Tell face down (a visible False Tell would announce that the tell lies).
  it('when plr_1 plays False Tell choosing fear, then it lies face down with the chosen emotion, hidden from the others', () => {
    const state = atAction();
    const mask = giveCard(state, 'plr_1', 'False Tell');
    const id = submittedId(act(state, 'plr_1', play(mask, { chosen_emotion: 'fear' })));
    resolutionOf(finishActions(state), id);
    expect(state.arena).toEqual([{ card_id: mask, owner: 'plr_1', face_down: true, rounds_left: 2, countdown: null, chosen_emotion: 'fear' }]);
    const seen = worldView(state, { role: 'seat', player_id: 'plr_2' }).arena.cards[0]!;
    expect(seen).toMatchObject({ card: { card_id: 'card_hidden' }, chosen_emotion: null, rounds_left: null });
    expect(state.players[0]!.false_tell_charge).toBe(true);
  });

  it.each([
    [3, { dominant: null, vector: null, masked: false }],
    [4, { dominant: 'fear', vector: null, masked: false }],
    // The shown vector is the real one with the chosen emotion just on top (anger 0.9 → fear 1).
    [8, { dominant: 'fear', vector: neutral({ anger: 0.9, fear: 1 }), masked: false }],
  ])('given plr_1 really angry at exposure %i behind a False Tell (fear), then the others read the spoof, unflagged: %j', (exposure, tell) => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure, emotions: neutral({ anger: 0.9 }) });
    placeArena(state, 'plr_1', 'False Tell', { chosen_emotion: 'fear' });
    expect(tellSeenBy(state)).toEqual(tell);
  });

  it('given plr_1 played False Tell, when plr_2 and plr_3 then attack it, then only the first manipulation loses 0.15 power', () => {
    const state = atAction();
    okEvents(act(state, 'plr_1', play(giveCard(state, 'plr_1', 'False Tell'), { chosen_emotion: 'shame' })));
    okEvents(act(state, 'plr_1', { selected_action: { kind: 'pass' } }));
    const first = submittedId(submit(state, 'plr_2', attack(giveCard(state, 'plr_2', 'Needle'), 'plr_1')));
    okEvents(act(state, 'plr_2', { selected_action: { kind: 'pass' } }));
    const second = submittedId(submit(state, 'plr_3', attack(giveCard(state, 'plr_3', 'Needle'), 'plr_1')));
    const events = finishActions(state);
    // Needle: 0.35 − 0.1 (no threat made) = 0.25; exposure and confidence are 0
    expect(resolutionOf(events, first).payload.manipulation?.power).toBe(0.1);
    expect(resolutionOf(events, second).payload.manipulation?.power).toBe(0.25);
    expect(state.players[0]!.false_tell_charge).toBe(false);
  });
});
