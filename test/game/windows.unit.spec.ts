import { describe, expect, it } from 'vitest';
import { requestFor, viewEvent } from '../../src/game/index.js';
import {
  PASS, act, attack, driveTo, eventsOf, giveCard, newGame, okEvents, onlyEvent, say, seat, setHand, setOrder, setSeat, submit,
} from '../support/scenario.js';

describe('intent window: a SecretPlan, defaulting on invalid', () => {
  it('given the intent window, when a seat commits a valid plan, then it is stored and hidden from the others', () => {
    const state = newGame({ seats: 3 });
    const plan = { tactical_intent: 'lockout', emotional_intent: { emotion: 'shame', target_player_id: 'plr_2' }, deception_frame: 'look calm' };
    const events = okEvents(act(state, 'plr_1', plan, 'intent'));
    const committed = onlyEvent(events, 'secret_plan_committed');
    expect(committed.payload).toMatchObject({ player_id: 'plr_1', defaulted: false, plan });
    expect(seat(state, 'plr_1').secret_plan).toEqual(plan);
    expect(viewEvent(committed, { role: 'seat', player_id: 'plr_2' }).payload).not.toHaveProperty('plan');
    expect(viewEvent(committed, { role: 'spectator' }).payload).not.toHaveProperty('plan');
    expect(viewEvent(committed, { role: 'seat', player_id: 'plr_1' }).payload).toHaveProperty('plan');
  });

  it.each([
    ['garbage', 'intent/invalid', 42],
    ['a missing answer', 'intent/invalid', null],
    ['an unknown tactical intent', 'intent/invalid', { tactical_intent: 'nap', emotional_intent: null }],
    ['itself as target', 'intent/illegal_target', { tactical_intent: 'build', emotional_intent: { emotion: 'fear', target_player_id: 'plr_1' } }],
    ['an unknown target', 'intent/illegal_target', { tactical_intent: 'build', emotional_intent: { emotion: 'fear', target_player_id: 'plr_9' } }],
  ])('given %s, then the plan defaults to defend with no emotional intent (%s, no reprompt)', (_, code, decision) => {
    const state = newGame({ seats: 3 });
    const events = okEvents(act(state, 'plr_1', decision, 'intent'));
    // The rejection travels inside the private commitment: a public action_rejected would announce the default plan.
    expect(events.filter((e) => e.type === 'action_rejected')).toEqual([]);
    expect(onlyEvent(events, 'secret_plan_committed').payload).toMatchObject({ defaulted: true, rejection: { code }, plan: { tactical_intent: 'defend', emotional_intent: null } });
    expect(state.window?.queue).not.toContain('plr_1');
  });

  it('given an eliminated seat as the emotional target, then the plan defaults', () => {
    const state = newGame({ seats: 3 });
    setSeat(state, 'plr_3', { alive: false });
    const events = okEvents(act(state, 'plr_1', { tactical_intent: 'build', emotional_intent: { emotion: 'fear', target_player_id: 'plr_3' } }, 'intent'));
    expect(onlyEvent(events, 'secret_plan_committed').payload.defaulted).toBe(true);
  });
});

describe('talk window: 2 public statements, 1 private message, speech_act private', () => {
  const talkFirst = (seats = 3) => {
    const state = newGame({ seats });
    driveTo(state, 'talk');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3'].slice(0, seats));
    return state;
  };

  it('given the talk window, when a seat posts 2 public and 1 private, then all three are posted and the next seat talks', () => {
    const state = talkFirst();
    const speech = [say('taunt', null, 'hi all'), say('threat', 'plr_2', 'you next'), say('promise', 'plr_3', 'we are fine', 'private')];
    const events = okEvents(act(state, 'plr_1', { speech_actions: speech }));
    expect(eventsOf(events, 'speech_posted')).toHaveLength(3);
    expect(onlyEvent(events, 'talk_finished').payload).toMatchObject({ statements: 3, forced: false });
    expect(state.window?.queue[0]).toBe('plr_2');
    // the threat and the promise aimed at a seat enter the ledger; the taunt does not
    expect(state.ledger.map((c) => [c.kind, c.target, c.public])).toEqual([
      ['threat', 'plr_2', true],
      ['promise', 'plr_3', false],
    ]);
  });

  it.each([
    ['3 public statements', 'talk/too_many_public', [say('taunt', null), say('taunt', null), say('taunt', null)]],
    ['2 private messages', 'talk/too_many_private', [say('neutral', 'plr_2', 'a', 'private'), say('neutral', 'plr_3', 'b', 'private')]],
    ['a private message without target', 'talk/private_needs_target', [say('neutral', null, 'a', 'private')]],
    ['a message to itself', 'talk/illegal_target', [say('neutral', 'plr_1', 'me')]],
    ['a text over 500 characters', 'talk/invalid', [say('neutral', null, 'x'.repeat(501))]],
    ['an unknown speech act', 'talk/invalid', [say('flirt', null)]],
  ])('given %s, then %s, one reprompt, then the seat is done talking', (_, code, speech) => {
    const state = talkFirst();
    const first = okEvents(act(state, 'plr_1', { speech_actions: speech }));
    expect(onlyEvent(first, 'action_rejected').payload).toMatchObject({ code, attempt: 1, reprompt: true });
    expect(requestFor(state, 'plr_1').constraints.reprompt).toMatchObject({ code });
    const second = okEvents(act(state, 'plr_1', { speech_actions: speech }));
    expect(onlyEvent(second, 'action_rejected').payload).toMatchObject({ attempt: 2, reprompt: false });
    expect(onlyEvent(second, 'talk_finished').payload).toMatchObject({ statements: 0, forced: true });
    expect(eventsOf([...first, ...second], 'speech_posted')).toHaveLength(0);
  });

  it('given posted speech, then others see speaker, channel, target and text, but never the speech_act label', () => {
    const state = talkFirst();
    const events = okEvents(act(state, 'plr_1', { speech_actions: [say('bluff', 'plr_2', 'I hold three Snares')] }));
    const posted = onlyEvent(events, 'speech_posted');
    const seen = viewEvent(posted, { role: 'seat', player_id: 'plr_2' }).payload;
    expect(seen).toMatchObject({ player_id: 'plr_1', channel: 'public', target_player_id: 'plr_2', text: 'I hold three Snares' });
    expect(seen).not.toHaveProperty('speech_act');
    expect(seen).not.toHaveProperty('commitment_id');
    expect(viewEvent(posted, { role: 'spectator' }).payload).not.toHaveProperty('speech_act');
    expect(viewEvent(posted, { role: 'seat', player_id: 'plr_1' }).payload).toMatchObject({ speech_act: 'bluff' });
    const world = requestFor(state, 'plr_2').public_world_view.round_speech;
    expect(world).toEqual([{ player_id: 'plr_1', channel: 'public', target_player_id: 'plr_2', text: 'I hold three Snares', speech_act: null }]);
  });

  it('given a private message, then only its speaker and target see the text', () => {
    const state = talkFirst();
    const events = okEvents(act(state, 'plr_1', { speech_actions: [say('warning', 'plr_2', 'plr_3 is coming', 'private')] }));
    const posted = onlyEvent(events, 'speech_posted');
    expect(viewEvent(posted, { role: 'seat', player_id: 'plr_2' }).payload).toHaveProperty('text', 'plr_3 is coming');
    expect(viewEvent(posted, { role: 'seat', player_id: 'plr_3' }).payload).not.toHaveProperty('text');
    expect(viewEvent(posted, { role: 'spectator' }).payload).not.toHaveProperty('text');
    expect(viewEvent(posted, { role: 'admin' }).payload).toHaveProperty('text');
    expect(requestFor(state, 'plr_3').public_world_view.round_speech[0]).toMatchObject({ text: null, speech_act: null });
  });

  it('given talk, then seats speak one at a time in initiative order', () => {
    const state = talkFirst();
    const r = act(state, 'plr_2', { speech_actions: [] });
    expect(r.ok || r.rejection.code).toBe('turn/not_awaited');
  });
});

describe('action window: reprompt once, then a forced pass', () => {
  it('given an illegal action, then action_rejected with the reason and the same seat is asked again; a second one forces a pass', () => {
    const state = newGame({ seats: 3 });
    driveTo(state, 'action');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
    const feint = giveCard(state, 'plr_1', 'Feint');
    const bad = attack(feint, 'plr_2', null);
    const first = okEvents(act(state, 'plr_1', bad));
    expect(onlyEvent(first, 'action_rejected').payload).toMatchObject({ code: 'action/missing_attack_plan', attempt: 1, reprompt: true });
    expect(state.window?.queue[0]).toBe('plr_1');
    expect(requestFor(state, 'plr_1').constraints.reprompt?.code).toBe('action/missing_attack_plan');
    const second = okEvents(act(state, 'plr_1', bad));
    expect(onlyEvent(second, 'action_rejected').payload).toMatchObject({ attempt: 2, reprompt: false });
    expect(onlyEvent(second, 'action_submitted').payload).toMatchObject({ kind: 'pass', forced: true });
    expect(state.window?.queue[0]).toBe('plr_2');
    expect(seat(state, 'plr_1').hand).toContain(feint);
  });

  it('given a rejected first try, when the reprompt is answered legally, then the action is taken and the next decision has a fresh reprompt', () => {
    const state = newGame({ seats: 3 });
    driveTo(state, 'action');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
    setHand(state, 'plr_1', ['Needle', 'Needle', 'Feint']);
    const [n1, n2] = seat(state, 'plr_1').hand;
    okEvents(act(state, 'plr_1', { selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } } }));
    expect(onlyEvent(okEvents(submit(state, 'plr_1', attack(n1!, 'plr_2'))), 'action_submitted').payload.kind).toBe('play_card');
    expect(requestFor(state, 'plr_1').constraints).toMatchObject({ reprompt: null, actions_left: 1 });
    const again = okEvents(act(state, 'plr_1', attack(n2!, 'plr_2', null)));
    expect(onlyEvent(again, 'action_rejected').payload).toMatchObject({ attempt: 1, reprompt: true });
  });

  it('given a pass, then the seat is done for the round; two actions also end its window', () => {
    const state = newGame({ seats: 3 });
    driveTo(state, 'action');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
    okEvents(act(state, 'plr_1', PASS));
    expect(state.window?.queue).toEqual(['plr_2', 'plr_3']);
    setHand(state, 'plr_2', ['Needle', 'Needle']);
    const [a, b] = seat(state, 'plr_2').hand;
    okEvents(submit(state, 'plr_2', attack(a!, 'plr_3')));
    okEvents(submit(state, 'plr_2', attack(b!, 'plr_1')));
    expect(state.window?.queue).toEqual(['plr_3']);
  });
});

describe('reaction window: an attacked seat is asked once whether it plays a Guard', () => {
  const attackOn = (targetHand: string[], targetTempo = 1) => {
    const state = newGame({ seats: 3 });
    driveTo(state, 'action');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
    setHand(state, 'plr_2', targetHand);
    setSeat(state, 'plr_2', { tempo: targetTempo });
    const needle = giveCard(state, 'plr_1', 'Needle');
    return { state, events: okEvents(act(state, 'plr_1', attack(needle, 'plr_2'))) };
  };

  it('given the target holds a Brace, when attacked, then it is asked to react and its answer returns play to the attacker', () => {
    const { state, events } = attackOn(['Brace', 'Needle']);
    const asked = onlyEvent(events, 'reaction_requested');
    expect(asked.payload).toMatchObject({ player_id: 'plr_2', attacker_player_id: 'plr_1' });
    expect(state.window).toMatchObject({ window: 'reaction', queue: ['plr_2'] });
    const req = requestFor(state, 'plr_2');
    expect(req.constraints.incoming_attack).toMatchObject({ attacker_player_id: 'plr_1', card_name: 'Needle' });
    const brace = seat(state, 'plr_2').hand[0]!;
    const reacted = okEvents(act(state, 'plr_2', { card_id: brace }, 'reaction'));
    expect(onlyEvent(reacted, 'reaction_submitted').payload.card?.name).toBe('Brace');
    expect(state.window).toMatchObject({ window: 'action', queue: ['plr_1', 'plr_2', 'plr_3'] });
    expect(seat(state, 'plr_2').hand).not.toContain(brace);
  });

  // The engine asks every attacked seat (full windows): asking only guard holders would tell the
  // table who holds a guard. A seat without an affordable guard can only decline.
  it.each([
    ['no guard', ['Needle', 'Composure'], 1],
    ['a Riposte it cannot pay for', ['Riposte'], 0],
  ])('given the target holds %s, when attacked, then it is asked too, with pass as its only legal answer', (_, hand, tempo) => {
    const { state, events } = attackOn(hand, tempo);
    expect(onlyEvent(events, 'reaction_requested').payload.player_id).toBe('plr_2');
    expect(requestFor(state, 'plr_2').legal_actions).toEqual([{ kind: 'pass' }]);
    okEvents(act(state, 'plr_2', { card_id: null }, 'reaction'));
    expect(state.window?.window).toBe('action');
  });

  it('given a reaction with a card that is not an affordable guard, then one reprompt, then no reaction', () => {
    const { state } = attackOn(['Brace', 'Needle']);
    const needle = seat(state, 'plr_2').hand[1]!;
    const first = okEvents(act(state, 'plr_2', { card_id: needle }, 'reaction'));
    expect(onlyEvent(first, 'action_rejected').payload).toMatchObject({ code: 'reaction/not_a_guard', reprompt: true });
    const second = okEvents(act(state, 'plr_2', { card_id: 'nope' }, 'reaction'));
    expect(onlyEvent(second, 'action_rejected').payload).toMatchObject({ code: 'reaction/invalid', reprompt: false });
    expect(onlyEvent(second, 'reaction_submitted').payload.card).toBeNull();
    expect(state.window?.window).toBe('action');
  });
});

describe('reflect window: a ReflectionRecord is optional', () => {
  it('given memory updates, then they are kept as notes; an invalid record is logged and the seat still finishes', () => {
    const state = newGame({ seats: 2 });
    driveTo(state, 'reflect');
    okEvents(act(state, 'plr_1', { memory_updates: ['plr_2 bluffs a lot'] }));
    const bad = okEvents(act(state, 'plr_2', { memory_updates: 'not a list' }));
    expect(onlyEvent(bad, 'action_rejected').payload).toMatchObject({ code: 'reflect/invalid', reprompt: false });
    expect(seat(state, 'plr_1').notes).toEqual(['plr_2 bluffs a lot']);
    expect(state.turn).toBe(2);
  });
});
