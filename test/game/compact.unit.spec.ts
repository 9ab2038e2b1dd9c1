import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/game/index.js';
import { awaiting, requestFor, viewEvent } from '../../src/game/index.js';
import { act, attack, eventsOf, neutral, newGame, nextRound, okEvents, onlyEvent, plan, say, seat, setHand, setOrder, setSeat } from '../support/scenario.js';

/** Given a compact game at its first (and only) decision window of round 1, seats in seat order, hands empty. */
function compact(seats = 3): GameState {
  const state = newGame({ seats, rules: { windows: 'compact' } });
  setOrder(state, state.players.map((p) => p.player_id));
  for (const p of state.players) {
    setHand(state, p.player_id, []);
    p.emotions = neutral();
  }
  return state;
}

describe('compact windows: one TurnPlanResponse per seat per round', () => {
  it('given a compact game, then after draw the only window is action, asking seats one by one', () => {
    const state = newGame({ seats: 3, rules: { windows: 'compact' } });
    expect(awaiting(state)).toEqual({ window: 'action', seats: [state.initiative_order[0]] });
    expect(requestFor(state, state.initiative_order[0]!).constraints.compact).toBe(true);
    const events = nextRound(state);
    const windows = eventsOf(events, 'phase_changed').map((e) => e.payload.phase);
    expect(windows).toEqual(['resolve', 'reflect', 'end', 'upkeep', 'draw', 'action']);
    expect(eventsOf(events, 'secret_plan_committed')).toHaveLength(3);
    expect(eventsOf(events, 'talk_finished')).toHaveLength(0);
  });

  it('given one answer with speech, an attack and a follow-up, then all of it is committed and the seat is done', () => {
    const state = compact();
    const [needle, composure] = setHand(state, 'plr_1', ['Needle', 'Composure']);
    const decision = {
      ...attack(needle!, 'plr_2', { kinetic_intent: 'lockout', emotional_intent: 'shame' }),
      speech_actions: [say('threat', 'plr_2', 'here it comes')],
      follow_up: { selected_action: { kind: 'play_card', payload: { card_id: composure } } },
    };
    const events = okEvents(act(state, 'plr_1', decision));
    expect(eventsOf(events, 'speech_posted')).toHaveLength(1);
    expect(eventsOf(events, 'action_submitted').map((e) => e.payload.kind)).toEqual(['play_card', 'play_card']);
    expect(state.window?.queue).toEqual(['plr_2', 'plr_3']);
    expect(seat(state, 'plr_1').hand).toEqual([]);
  });

  it('given an attack plan and no explicit secret plan, then the secret plan is taken from it (its kinetic intent)', () => {
    const state = compact();
    const [needle] = setHand(state, 'plr_1', ['Needle']);
    const committed = onlyEvent(okEvents(act(state, 'plr_1', attack(needle!, 'plr_2', { kinetic_intent: 'combo_break' }))), 'secret_plan_committed');
    expect(committed.payload).toMatchObject({ defaulted: false, plan: { tactical_intent: 'combo_break' } });
    expect(viewEvent(committed, { role: 'seat', player_id: 'plr_2' }).payload).not.toHaveProperty('plan');
  });

  it('given an explicit secret plan, then it is the one committed; a pass without one commits the default', () => {
    const state = compact();
    const secret = { tactical_intent: 'build', emotional_intent: { emotion: 'fear', target_player_id: 'plr_3' } };
    const mine = onlyEvent(okEvents(act(state, 'plr_1', { selected_action: { kind: 'pass' }, secret_plan: secret })), 'secret_plan_committed');
    expect(mine.payload.plan).toEqual(secret);
    const theirs = onlyEvent(okEvents(act(state, 'plr_2', { selected_action: { kind: 'pass' } })), 'secret_plan_committed');
    expect(theirs.payload.plan).toEqual({ tactical_intent: 'defend', emotional_intent: null });
  });

  it('given the target holds an affordable guard, then the engine reacts for it with its best guard (no reaction window)', () => {
    const state = compact();
    setHand(state, 'plr_2', ['Needle', 'Riposte', 'Brace']);
    setSeat(state, 'plr_2', { tempo: 1 });
    const [needle] = setHand(state, 'plr_1', ['Needle']);
    const events = okEvents(act(state, 'plr_1', attack(needle!, 'plr_2')));
    expect(eventsOf(events, 'reaction_requested')).toHaveLength(0);
    expect(onlyEvent(events, 'reaction_submitted').payload.card?.name).toBe('Brace');
  });

  it('given an invalid answer twice, then one reprompt, then the default plan and a forced pass', () => {
    const state = compact();
    const first = okEvents(act(state, 'plr_1', { selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } } }));
    expect(onlyEvent(first, 'action_rejected').payload).toMatchObject({ code: 'action/card_not_in_hand', reprompt: true });
    const second = okEvents(act(state, 'plr_1', { speech_actions: [say('taunt', null), say('taunt', null), say('taunt', null)], selected_action: { kind: 'pass' } }));
    expect(onlyEvent(second, 'action_rejected').payload).toMatchObject({ code: 'talk/too_many_public', reprompt: false });
    expect(onlyEvent(second, 'secret_plan_committed').payload).toMatchObject({ defaulted: true });
    expect(onlyEvent(second, 'action_submitted').payload).toMatchObject({ kind: 'pass', forced: true });
  });

  it('given an attack without a plan, then action/missing_attack_plan, as in full windows', () => {
    const state = compact();
    const [needle] = setHand(state, 'plr_1', ['Needle']);
    const events = okEvents(act(state, 'plr_1', attack(needle!, 'plr_2', null)));
    expect(onlyEvent(events, 'action_rejected').payload.code).toBe('action/missing_attack_plan');
  });

  it('given an illegal follow-up, then the first action stands, the follow-up is rejected without reprompt and the seat passes', () => {
    const state = compact();
    const [needle] = setHand(state, 'plr_1', ['Needle']);
    const decision = { ...attack(needle!, 'plr_2'), follow_up: { selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } }, attack_plan: plan('plr_2') } };
    const events = okEvents(act(state, 'plr_1', decision));
    expect(onlyEvent(events, 'action_rejected').payload).toMatchObject({ code: 'action/card_not_in_hand', reprompt: false });
    expect(eventsOf(events, 'action_submitted').map((e) => e.payload.kind)).toEqual(['play_card', 'pass']);
    expect(state.stack).toHaveLength(1);
    expect(state.window?.queue[0]).toBe('plr_2');
  });

  it('given a locked-out seat, then the follow-up is ignored after its one action', () => {
    const state = compact();
    setSeat(state, 'plr_1', { locked_out: true });
    const [a, b] = setHand(state, 'plr_1', ['Needle', 'Needle']);
    const decision = { ...attack(a!, 'plr_2'), follow_up: { selected_action: { kind: 'play_card', payload: { card_id: b, target_player_id: 'plr_3' } }, attack_plan: plan('plr_3') } };
    const events = okEvents(act(state, 'plr_1', decision));
    expect(eventsOf(events, 'action_submitted')).toHaveLength(1);
    expect(seat(state, 'plr_1').hand).toEqual([b]);
  });
});
