import { describe, expect, it } from 'vitest';
import type { GameEventOf } from '../../src/protocol/index.js';
import type { GameState } from '../../src/game/index.js';
import {
  act, atAction, attack, finishActions, submit, giveCard, nextRound, okEvents, placeArena, resolutionOf, seat, setHand, setSeat, submittedId,
} from '../support/scenario.js';

type Resolved = GameEventOf<'action_resolved'>;

/** When plr_1 plays `name` at plr_2 with this plan and the round resolves: the resolution. */
function strike(state: GameState, name: string, over: Parameters<typeof attack>[2] = {}): Resolved {
  const card = giveCard(state, 'plr_1', name);
  const id = submittedId(act(state, 'plr_1', attack(card, 'plr_2', over)));
  return resolutionOf(finishActions(state), id);
}

/** A failed manipulation costs the attacker 1 exposure on top of the card's own effect. */
const failedCost = (r: Resolved) => (r.payload.manipulation?.outcome === 'failed' ? 1 : 0);

describe('Feint: 0 tempo, 2 damage, tempo_swing or forced_line', () => {
  it('given plr_2 at tempo 3, when Feint swings tempo, then plr_2 takes 2, loses 2 tempo to plr_1, who gains +1 more for gambit damage', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 1 });
    setSeat(state, 'plr_2', { tempo: 3 });
    const r = strike(state, 'Feint', { kinetic_intent: 'tempo_swing' });
    expect(r.payload.tactical_effect).toMatchObject({ resolve_delta: { plr_2: -2 }, tempo_delta: { plr_1: 3, plr_2: -2 } });
    expect(seat(state, 'plr_1').tempo).toBe(4);
    expect(seat(state, 'plr_2')).toMatchObject({ tempo: 1, resolve: 10 });
    expect(r.payload.card?.name).toBe('Feint');
    expect(state.discard).toContain(r.payload.card?.card_id);
  });

  it('given plr_2 at tempo 1, when Feint swings tempo, then only the 1 tempo it has moves', () => {
    const state = atAction();
    setSeat(state, 'plr_2', { tempo: 1 });
    const r = strike(state, 'Feint', { kinetic_intent: 'tempo_swing' });
    expect(r.payload.tactical_effect.tempo_delta).toEqual({ plr_1: 2, plr_2: -1 });
  });

  it('given plr_1 near the tempo cap, when it swings tempo, then it stops at 10', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 9 });
    setSeat(state, 'plr_2', { tempo: 5 });
    strike(state, 'Feint', { kinetic_intent: 'tempo_swing' });
    expect(seat(state, 'plr_1').tempo).toBe(10);
  });

  it('when Feint draws a forced line, then next round plr_2 may only attack plr_1', () => {
    const state = atAction();
    const r = strike(state, 'Feint', { kinetic_intent: 'forced_line' });
    expect(r.payload.tactical_effect.status_changes).toEqual([{ player_id: 'plr_2', status: 'forced_line', toward_player_id: 'plr_1' }]);
    nextRound(state);
    expect(seat(state, 'plr_2').forced_line).toBe('plr_1');
  });
});

describe('Overreach: 1 tempo, 4 damage, own exposure +2, any kinetic intent', () => {
  it('when Overreach locks plr_2 out, then plr_2 takes 4, plr_1 gets exposure +2 and plr_2 one action next round', () => {
    const state = atAction();
    const r = strike(state, 'Overreach', { kinetic_intent: 'lockout' });
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -4 });
    expect(r.payload.tactical_effect.exposure_delta).toEqual({ plr_1: 2 + failedCost(r) });
    expect(r.payload.tactical_effect.status_changes).toEqual([{ player_id: 'plr_2', status: 'lockout', toward_player_id: null }]);
    expect(seat(state, 'plr_1').tempo).toBe(1); // 1 paid, +1 for gambit damage
    nextRound(state);
    expect(seat(state, 'plr_2').locked_out).toBe(true);
  });

  it.each(['discard_pressure', 'lockout', 'combo_break', 'tempo_swing', 'forced_line'] as const)('accepts kinetic intent %s', (kinetic_intent) => {
    const state = atAction();
    const card = giveCard(state, 'plr_1', 'Overreach');
    expect(okEvents(act(state, 'plr_1', attack(card, 'plr_2', { kinetic_intent }))).map((e) => e.type)).toContain('action_submitted');
  });

  it('when Overreach applies discard_pressure, then the target discards 1 card (a seeded pick from its hand)', () => {
    const state = atAction();
    const hand = setHand(state, 'plr_2', ['Needle', 'Feint', 'Tell']);
    const r = strike(state, 'Overreach', { kinetic_intent: 'discard_pressure' });
    const moved = r.payload.tactical_effect.card_moves.filter((m) => m.reason === 'discard_pressure');
    expect(moved).toHaveLength(1);
    expect(hand).toContain(moved[0]!.card_id);
    expect(seat(state, 'plr_2').hand).toHaveLength(2);
  });
});

describe('Sever: 1 tempo, 1 damage, combo_break (ritual > trap > mask > guard)', () => {
  it.each([
    [['Composure', 'Poker Face', 'Lockjaw', 'Rebuild'], 'Rebuild'],
    [['Composure', 'Poker Face', 'Lockjaw'], 'Lockjaw'],
    [['Composure', 'Poker Face'], 'Poker Face'],
    [['Composure'], 'Composure'],
  ])('given plr_2 has %j in its arena, when Sever breaks a combo, then %s is destroyed', (arena, destroyed) => {
    const state = atAction();
    const ids = arena.map((n) => placeArena(state, 'plr_2', n));
    const r = strike(state, 'Sever', { kinetic_intent: 'combo_break' });
    const victim = ids[arena.indexOf(destroyed)]!;
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -1 });
    expect(r.payload.tactical_effect.card_moves).toContainEqual({ card_id: victim, from: 'arena:plr_2', to: 'discard', reason: 'combo_break' });
    expect(state.arena.map((a) => a.card_id)).toEqual(ids.filter((c) => c !== victim));
    expect(state.discard).toContain(victim);
  });

  it('given an empty arena, when Sever breaks a combo, then only the damage lands', () => {
    const state = atAction();
    const r = strike(state, 'Sever', { kinetic_intent: 'combo_break' });
    expect(r.payload.tactical_effect.card_moves.map((m) => m.reason)).toEqual(['resolved']);
  });

  it('given plr_2 activated a ritual this round, when Sever destroys it first, then the activation fizzles', () => {
    const state = atAction();
    setSeat(state, 'plr_2', { tempo: 2 });
    const ritual = placeArena(state, 'plr_2', 'Slow Burn', { countdown: 3 });
    const sever = giveCard(state, 'plr_1', 'Sever');
    const severId = submittedId(submit(state, 'plr_1', attack(sever, 'plr_2', { kinetic_intent: 'combo_break' })));
    act(state, 'plr_1', { selected_action: { kind: 'pass' } });
    const hastenId = submittedId(act(state, 'plr_2', { selected_action: { kind: 'activate', payload: { card_id: ritual } } }));
    const events = finishActions(state);
    expect(resolutionOf(events, severId).payload.tactical_effect.card_moves).toContainEqual(expect.objectContaining({ card_id: ritual, reason: 'combo_break' }));
    expect(resolutionOf(events, hastenId).payload).toMatchObject({ fizzled: true });
  });
});

describe('Strip: 1 tempo, 1 damage, discard_pressure (2) or lockout', () => {
  it('given plr_2 holds 3 cards, when Strip applies discard pressure, then 2 of them (seeded) are discarded', () => {
    const state = atAction();
    const hand = setHand(state, 'plr_2', ['Needle', 'Feint', 'Tell']);
    const r = strike(state, 'Strip', { kinetic_intent: 'discard_pressure' });
    const moved = r.payload.tactical_effect.card_moves.filter((m) => m.reason === 'discard_pressure').map((m) => m.card_id);
    expect(moved).toHaveLength(2);
    expect(hand).toEqual(expect.arrayContaining(moved));
    expect(seat(state, 'plr_2').hand).toEqual(hand.filter((c) => !moved.includes(c)));
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -1 });
    expect(r.rng).toBeDefined();
  });

  it('given plr_2 holds 1 card, when Strip applies discard pressure, then it discards what it has', () => {
    const state = atAction();
    setHand(state, 'plr_2', ['Needle']);
    strike(state, 'Strip', { kinetic_intent: 'discard_pressure' });
    expect(seat(state, 'plr_2').hand).toEqual([]);
  });

  it('when Strip locks out, then plr_2 gets 1 action next round', () => {
    const state = atAction();
    const r = strike(state, 'Strip', { kinetic_intent: 'lockout' });
    expect(r.payload.tactical_effect.status_changes).toEqual([{ player_id: 'plr_2', status: 'lockout', toward_player_id: null }]);
  });
});

describe('damage: base × (1 + 0.1 × target exposure), rounded half away from zero; guards reduce it', () => {
  it.each([
    ['Feint', 0, 2],
    ['Feint', 5, 3], // 3.0
    ['Feint', 3, 3], // 2.6
    ['Needle', 4, 1], // 1.4
    ['Needle', 5, 2], // 1.5 → 2
    ['Overreach', 10, 8],
    ['Overreach', 1, 4], // 4.4
  ])('given %s at a target with exposure %i, then %i damage', (name, exposure, dealt) => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 1 });
    setSeat(state, 'plr_2', { exposure });
    const r = strike(state, name, name === 'Feint' ? {} : { kinetic_intent: 'lockout' });
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -dealt });
  });

  it('given a gambit fully prevented by a Brace, then no damage and no gambit tempo', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 0 });
    setSeat(state, 'plr_2', { tempo: 0 });
    const [brace] = setHand(state, 'plr_2', ['Brace']);
    const feint = giveCard(state, 'plr_1', 'Feint');
    const id = submittedId(act(state, 'plr_1', attack(feint, 'plr_2', { kinetic_intent: 'forced_line' })));
    okEvents(act(state, 'plr_2', { card_id: brace }, 'reaction'));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.resolve_delta).toEqual({});
    expect(r.payload.tactical_effect.tempo_delta).toEqual({});
    expect(r.payload.rules_notes).toContain('Brace: prevented 2');
  });
});
