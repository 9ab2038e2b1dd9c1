import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/game/index.js';
import { act, activate, attack, driveTo, giveCard, newGame, okEvents, onlyEvent, placeArena, play, seat, setHand, setOrder, setSeat } from '../support/scenario.js';

/** Given: round 1's action window, plr_1 to act with an empty hand and 1 tempo; no seat holds a guard. */
function atAction(seats = 4): GameState {
  const state = newGame({ seats });
  driveTo(state, 'action');
  const order = state.players.map((p) => p.player_id);
  setOrder(state, order);
  for (const id of order) setHand(state, id, []);
  return state;
}

/** When plr_1 answers `decision`, then it is rejected with `code`, and its hand and tempo are untouched. */
function expectRejected(state: GameState, decision: unknown, code: string): void {
  const p = seat(state, 'plr_1');
  const before = { hand: [...p.hand], tempo: p.tempo, stack: state.stack.length };
  const events = okEvents(act(state, 'plr_1', decision));
  expect(onlyEvent(events, 'action_rejected').payload).toMatchObject({ player_id: 'plr_1', window: 'action', code, reprompt: true });
  expect({ hand: p.hand, tempo: p.tempo, stack: state.stack.length }).toEqual(before);
  state.window!.rejections = 0; // rig: the next check is a fresh first try again
}

describe('action validation: the shape of the answer', () => {
  it.each([
    ['not an object', 'nope', 'action/invalid'],
    ['no selected_action', { attack_plan: null }, 'action/invalid'],
    ['an unknown kind', { selected_action: { kind: 'dance' } }, 'action/invalid'],
    ['a kind of another window', { selected_action: { kind: 'speak' } }, 'action/wrong_kind'],
    ['another seat as player_id', { selected_action: { kind: 'pass', player_id: 'plr_2' } }, 'action/wrong_player'],
    ['a stale turn', { selected_action: { kind: 'pass', turn: 9 } }, 'action/stale_turn'],
    ['a play without card_id', { selected_action: { kind: 'play_card', payload: {} } }, 'action/missing_card'],
  ])('given %s, then it is rejected (%s)', (_, decision, code) => {
    expectRejected(atAction(), decision, code);
  });
});

describe('action validation: the card', () => {
  it('given a card id that is not in hand, then action/card_not_in_hand', () => {
    const state = atAction();
    const elsewhere = giveCard(state, 'plr_2', 'Needle');
    expectRejected(state, attack(elsewhere, 'plr_2'), 'action/card_not_in_hand');
    expectRejected(state, attack('card_999', 'plr_2'), 'action/card_not_in_hand');
  });

  it.each(['Brace', 'Riposte'])('given a %s, when played in the action window, then action/reaction_only', (name) => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 5 });
    expectRejected(state, play(giveCard(state, 'plr_1', name)), 'action/reaction_only');
  });

  it.each([
    ['Overreach', 0],
    ['Slow Burn', 1],
    ['Humiliate', 0],
  ])('given a %s and only %i tempo, then action/insufficient_tempo', (name, tempo) => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo });
    const card = giveCard(state, 'plr_1', name);
    expectRejected(state, name === 'Slow Burn' ? play(card) : attack(card, 'plr_2'), 'action/insufficient_tempo');
  });

  it('given exactly enough tempo, then the card is played and the tempo is committed at submission', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 2 });
    const burn = giveCard(state, 'plr_1', 'Slow Burn');
    const events = okEvents(act(state, 'plr_1', play(burn)));
    expect(onlyEvent(events, 'action_submitted').payload.tempo_paid).toBe(2);
    expect(seat(state, 'plr_1')).toMatchObject({ tempo: 0, hand: [] });
    expect(state.stack.map((e) => e.card_id)).toEqual([burn]);
  });

  it('given a False Tell without chosen_emotion, then action/missing_chosen_emotion', () => {
    const state = atAction();
    expectRejected(state, play(giveCard(state, 'plr_1', 'False Tell')), 'action/missing_chosen_emotion');
  });
});

describe('action validation: attacks need a legal target and an AttackPlan', () => {
  it('given an attack card without AttackPlan, then action/missing_attack_plan', () => {
    const state = atAction();
    expectRejected(state, attack(giveCard(state, 'plr_1', 'Feint'), 'plr_2', null), 'action/missing_attack_plan');
  });

  it('given an attack card with neither a target nor a plan, then action/missing_target', () => {
    const state = atAction();
    const feint = giveCard(state, 'plr_1', 'Feint');
    expectRejected(state, { selected_action: { kind: 'play_card', payload: { card_id: feint } } }, 'action/missing_target');
  });

  it('given the target only in the plan, then the plan names the target', () => {
    const state = atAction();
    const feint = giveCard(state, 'plr_1', 'Feint');
    const decision = { ...attack(feint, 'plr_3'), selected_action: { kind: 'play_card', payload: { card_id: feint } } };
    const events = okEvents(act(state, 'plr_1', decision));
    expect(onlyEvent(events, 'action_submitted').payload.target_player_id).toBe('plr_3');
  });

  it.each([
    ['itself', 'plr_1'],
    ['an unknown seat', 'plr_9'],
  ])('given %s as target, then action/illegal_target', (_, target) => {
    const state = atAction();
    expectRejected(state, attack(giveCard(state, 'plr_1', 'Needle'), target), 'action/illegal_target');
  });

  it('given an eliminated seat as target, then action/illegal_target', () => {
    const state = atAction();
    setSeat(state, 'plr_4', { alive: false });
    expectRejected(state, attack(giveCard(state, 'plr_1', 'Needle'), 'plr_4'), 'action/illegal_target');
  });

  it('given a forced line toward plr_3, when attacking plr_2, then action/forced_line; attacking plr_3 is fine', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { forced_line: 'plr_3' });
    const needle = giveCard(state, 'plr_1', 'Needle');
    expectRejected(state, attack(needle, 'plr_2'), 'action/forced_line');
    expect(onlyEvent(okEvents(act(state, 'plr_1', attack(needle, 'plr_3'))), 'action_submitted').payload.target_player_id).toBe('plr_3');
  });

  it('given a forced line toward plr_3, when attacking plr_2 without a plan, then the missing plan is the reason given', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { forced_line: 'plr_3' });
    expectRejected(state, attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2', null), 'action/missing_attack_plan');
  });

  it('given a forced line toward a seat that has been eliminated, then any opponent may be attacked', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { forced_line: 'plr_3' });
    setSeat(state, 'plr_3', { alive: false });
    okEvents(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    expect(state.stack).toHaveLength(1);
  });

  it('given a plan aimed at another seat than the action, then action/plan_target_mismatch', () => {
    const state = atAction();
    const needle = giveCard(state, 'plr_1', 'Needle');
    const decision = { ...attack(needle, 'plr_2'), attack_plan: attack(needle, 'plr_3').attack_plan };
    expectRejected(state, decision, 'action/plan_target_mismatch');
  });

  it.each([
    ['Feint', 'lockout'],
    ['Feint', 'discard_pressure'],
    ['Sever', 'tempo_swing'],
    ['Strip', 'forced_line'],
  ] as const)('given a %s with kinetic intent %s, then action/kinetic_intent_not_allowed', (name, kinetic_intent) => {
    const state = atAction();
    expectRejected(state, attack(giveCard(state, 'plr_1', name), 'plr_2', { kinetic_intent }), 'action/kinetic_intent_not_allowed');
  });

  it.each([
    ['Humiliate', 'private'],
    ['Humiliate', 'mixed'],
    ['Whisper', 'public'],
  ] as const)('given a %s delivered %s, then action/channel_not_allowed', (name, delivery_channel) => {
    const state = atAction();
    const card = giveCard(state, 'plr_1', name);
    expectRejected(state, attack(card, 'plr_2', { delivery_channel }, { named_player_id: 'plr_3' }), 'action/channel_not_allowed');
  });

  it.each([
    ['no named seat', {}],
    ['the target as named seat', { named_player_id: 'plr_2' }],
    ['itself as named seat', { named_player_id: 'plr_1' }],
    ['an unknown named seat', { named_player_id: 'plr_9' }],
  ])('given a Whisper with %s, then action/illegal_named_player', (_, payload) => {
    const state = atAction();
    const whisper = giveCard(state, 'plr_1', 'Whisper');
    expectRejected(state, attack(whisper, 'plr_2', { delivery_channel: 'private' }, payload), 'action/illegal_named_player');
  });
});

describe('action validation: activating arena cards', () => {
  it('given a card that is not in the own arena, then action/card_not_in_arena', () => {
    const state = atAction();
    const theirs = placeArena(state, 'plr_2', 'Snare');
    expectRejected(state, activate(theirs, 'plr_3'), 'action/card_not_in_arena');
  });

  it('given no tempo, then activating costs 1 and is refused with action/insufficient_tempo', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 0 });
    expectRejected(state, activate(placeArena(state, 'plr_1', 'Snare'), 'plr_2'), 'action/insufficient_tempo');
  });

  it('given a mask or a guard in the arena, then action/not_activatable', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 5 });
    expectRejected(state, activate(placeArena(state, 'plr_1', 'Poker Face')), 'action/not_activatable');
    expectRejected(state, activate(placeArena(state, 'plr_1', 'Composure')), 'action/not_activatable');
  });

  it('given a trap activated this round already, then action/already_activated', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 5 });
    const ritual = placeArena(state, 'plr_1', 'Slow Burn', { countdown: 3 });
    okEvents(act(state, 'plr_1', activate(ritual)));
    expectRejected(state, activate(ritual), 'action/already_activated');
  });

  it('given a trap sprung without plan, then action/missing_attack_plan; with combo_break, action/kinetic_intent_not_allowed', () => {
    const state = atAction();
    const snare = placeArena(state, 'plr_1', 'Snare');
    expectRejected(state, { selected_action: { kind: 'activate', payload: { card_id: snare, target_player_id: 'plr_2' } } }, 'action/missing_attack_plan');
    expectRejected(state, activate(snare, 'plr_2', { kinetic_intent: 'combo_break' }), 'action/kinetic_intent_not_allowed');
  });
});

describe('lockout: a locked-out seat takes 1 action', () => {
  it('given plr_1 is locked out, when it takes one action, then its window closes', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { locked_out: true });
    const [a] = setHand(state, 'plr_1', ['Needle', 'Needle']);
    okEvents(act(state, 'plr_1', attack(a!, 'plr_2')));
    expect(state.window?.queue[0]).toBe('plr_2');
  });
});
