import { describe, expect, it } from 'vitest';
import { viewEvent, worldView } from '../../src/game/index.js';
import {
  act, activate, atAction, attack, driveTo, finishActions, giveCard, newGame, okEvents, onlyEvent, placeArena, play, resolutionOf, say, seat,
  setHand, setOrder, setSeat, submit, submittedId,
} from '../support/scenario.js';

describe('traps are played face down', () => {
  const playSnare = () => {
    const state = atAction();
    const snare = giveCard(state, 'plr_1', 'Snare');
    const submitted = onlyEvent(okEvents(act(state, 'plr_1', play(snare))), 'action_submitted');
    return { state, snare, submitted, events: finishActions(state) };
  };

  it('when plr_1 plays a Snare, then only plr_1 sees which card it was, and it lies face down in its arena', () => {
    const { state, snare, submitted, events } = playSnare();
    expect(submitted.payload.card).toBeNull();
    expect(JSON.stringify(viewEvent(submitted, { role: 'seat', player_id: 'plr_2' }))).not.toContain(snare);
    expect(JSON.stringify(viewEvent(submitted, { role: 'seat', player_id: 'plr_1' }))).toContain(snare);
    expect(resolutionOf(events, submitted.payload.action_id).payload.card).toBeNull();
    expect(state.arena).toEqual([{ card_id: snare, owner: 'plr_1', face_down: true, rounds_left: null, countdown: null, chosen_emotion: null }]);
    const world = worldView(state, { role: 'seat', player_id: 'plr_2' });
    expect(world.arena.cards[0]?.card.card_id).toBe('card_hidden');
    expect(JSON.stringify(world)).not.toContain(snare);
  });

  // Card ids are traceable (an id once seen in the public discard comes back after a reshuffle), so
  // the move of a face-down card must name its id to its owner only.
  it('when plr_1 plays a Snare, then no other viewer sees its card id in the resolution', () => {
    const { snare, events } = playSnare();
    for (const viewer of [{ role: 'seat', player_id: 'plr_2' } as const, { role: 'spectator' } as const]) {
      for (const e of events) expect(JSON.stringify(viewEvent(e, viewer))).not.toContain(snare);
    }
  });
});

describe('Snare: on a gambit against its owner, the attacker loses 3 resolve and gains 2 exposure', () => {
  it('given plr_2 has a Snare, when plr_1 Feints plr_2, then the Snare fires first and is discarded; the Feint still resolves', () => {
    const state = atAction();
    const snare = placeArena(state, 'plr_2', 'Snare');
    const feint = giveCard(state, 'plr_1', 'Feint');
    const id = submittedId(act(state, 'plr_1', attack(feint, 'plr_2', { kinetic_intent: 'forced_line' })));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.triggered_effects).toEqual(['Snare:plr_2']);
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_1: -3, plr_2: -2 });
    expect(r.payload.tactical_effect.exposure_delta.plr_1).toBe(2 + (r.payload.manipulation?.outcome === 'failed' ? 1 : 0));
    expect(r.payload.tactical_effect.card_moves[0]).toEqual({ card_id: snare, from: 'arena:plr_2', to: 'discard', reason: 'trap_sprung' });
    expect(state.arena).toEqual([]);
  });

  it('given plr_2 has two Snares, when attacked by one gambit, then only the oldest fires', () => {
    const state = atAction();
    const [first, second] = [placeArena(state, 'plr_2', 'Snare'), placeArena(state, 'plr_2', 'Snare')];
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Feint'), 'plr_2')));
    resolutionOf(finishActions(state), id);
    expect(state.discard).toContain(first);
    expect(state.arena.map((a) => a.card_id)).toEqual([second]);
  });

  it('given plr_2 has a Snare, when plr_1 attacks with a pressure card, then the Snare stays', () => {
    const state = atAction();
    placeArena(state, 'plr_2', 'Snare');
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    expect(resolutionOf(finishActions(state), id).payload.tactical_effect.triggered_effects).toEqual([]);
    expect(state.arena).toHaveLength(1);
  });
});

describe('Lockjaw: on a pressure card against its owner, the attacker is locked out and the affect halved', () => {
  it('given plr_2 has a Lockjaw, when plr_1 Needles plr_2, then plr_1 gets a lockout and the contest uses half the affect', () => {
    const state = atAction();
    placeArena(state, 'plr_2', 'Lockjaw');
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.triggered_effects).toEqual(['Lockjaw:plr_2']);
    expect(r.payload.tactical_effect.status_changes).toContainEqual({ player_id: 'plr_1', status: 'lockout', toward_player_id: null });
    // power = 0.35 × 0.5 − 0.1 (no threat was made) + 0 + 0
    expect(r.payload.manipulation?.power).toBe(0.075);
    expect(seat(state, 'plr_1').next_lockout).toBe(true);
  });

  it('given plr_2 has a Lockjaw, when plr_1 attacks with a gambit, then it stays', () => {
    const state = atAction();
    placeArena(state, 'plr_2', 'Lockjaw');
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Feint'), 'plr_2')));
    expect(resolutionOf(finishActions(state), id).payload.tactical_effect.triggered_effects).toEqual([]);
  });
});

describe('Tell: on a broken promise to its owner, the liar loses 2 resolve and the owner gains 2 tempo', () => {
  function promiseThenAttack(promise: string) {
    const state = newGame({ seats: 3 });
    driveTo(state, 'talk');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
    okEvents(act(state, 'plr_1', { speech_actions: [say(promise, 'plr_2', 'I will leave you alone')] }));
    driveTo(state, 'action', 'plr_1');
    for (const p of state.players) setHand(state, p.player_id, []);
    placeArena(state, 'plr_2', 'Tell');
    setSeat(state, 'plr_2', { tempo: 1 });
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    return { state, r: resolutionOf(finishActions(state), id) };
  }

  it('given plr_1 promised plr_2 and plr_2 has a Tell, when plr_1 attacks plr_2, then the Tell fires', () => {
    const { state, r } = promiseThenAttack('promise');
    expect(r.payload.tactical_effect.triggered_effects).toEqual(['Tell:plr_2']);
    expect(r.payload.tactical_effect.resolve_delta).toMatchObject({ plr_1: -2, plr_2: -1 });
    expect(r.payload.tactical_effect.tempo_delta).toEqual({ plr_2: 2 });
    expect(seat(state, 'plr_2').tempo).toBe(3);
  });

  it('given a concession instead of a promise, then the Tell fires too', () => {
    expect(promiseThenAttack('concession').r.payload.tactical_effect.triggered_effects).toEqual(['Tell:plr_2']);
  });

  it('given only a threat, then the Tell stays', () => {
    const { state, r } = promiseThenAttack('threat');
    expect(r.payload.tactical_effect.triggered_effects).toEqual([]);
    expect(state.arena).toHaveLength(1);
  });
});

describe('activate: springing an own face-down trap is an attack (1 tempo, 1 damage, tempo_swing or forced_line)', () => {
  it('given plr_1 has a Snare in its arena, when it springs it at plr_2 with tempo_swing, then 1 damage and the swing land and the trap is spent', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 1 });
    setSeat(state, 'plr_2', { tempo: 4, exposure: 5 });
    const snare = placeArena(state, 'plr_1', 'Snare');
    const submitted = onlyEvent(okEvents(act(state, 'plr_1', activate(snare, 'plr_2', { kinetic_intent: 'tempo_swing' }))), 'action_submitted');
    expect(submitted.payload).toMatchObject({ kind: 'activate', tempo_paid: 1, card: { name: 'Snare' } });
    expect(seat(state, 'plr_1').tempo).toBe(0);
    const r = resolutionOf(finishActions(state), submitted.payload.action_id);
    // 1 × (1 + 0.1 × 5) = 1.5 → 2; no gambit tempo for a sprung trap
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -2 });
    expect(r.payload.tactical_effect.tempo_delta).toEqual({ plr_1: 2, plr_2: -2 });
    expect(r.payload.tactical_effect.card_moves).toContainEqual({ card_id: snare, from: 'arena:plr_1', to: 'discard', reason: 'sprung' });
    expect(r.payload.manipulation?.power).toBe(0.1 + 0.25); // spring affect 0.2 − 0.1 + 0.05 × 5
    expect(state.arena).toEqual([]);
  });

  it('given a Lockjaw sprung with forced_line, then plr_2 must attack plr_1 next round', () => {
    const state = atAction();
    const jaw = placeArena(state, 'plr_1', 'Lockjaw');
    const id = submittedId(act(state, 'plr_1', activate(jaw, 'plr_2', { kinetic_intent: 'forced_line' })));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.status_changes).toEqual([{ player_id: 'plr_2', status: 'forced_line', toward_player_id: 'plr_1' }]);
  });

  it('given the trap plr_1 springs is destroyed earlier in the round, then the activation fizzles', () => {
    const state = atAction();
    setSeat(state, 'plr_2', { tempo: 2 });
    const jaw = placeArena(state, 'plr_2', 'Lockjaw');
    okEvents(submit(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Sever'), 'plr_2', { kinetic_intent: 'combo_break' })));
    okEvents(act(state, 'plr_1', { selected_action: { kind: 'pass' } }));
    const id = submittedId(act(state, 'plr_2', activate(jaw, 'plr_1', { kinetic_intent: 'forced_line' })));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload).toMatchObject({ fizzled: true, manipulation_outcome: null });
    expect(r.payload.tactical_effect.resolve_delta).toEqual({});
  });

  it('given a guard holder, when a trap is sprung at it, then it may react like to any attack', () => {
    const state = atAction();
    const snare = placeArena(state, 'plr_1', 'Snare');
    setHand(state, 'plr_2', ['Brace']);
    const events = okEvents(act(state, 'plr_1', activate(snare, 'plr_2', { kinetic_intent: 'forced_line' })));
    expect(onlyEvent(events, 'reaction_requested').payload.player_id).toBe('plr_2');
  });
});
