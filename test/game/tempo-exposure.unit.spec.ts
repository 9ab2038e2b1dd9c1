import { describe, expect, it } from 'vitest';
import type { GameEventOf } from '../../src/protocol/index.js';
import {
  PASS, act, atAction, attack, driveTo, finishActions, giveCard, nextRound, okEvents, onlyEvent, resolutionOf, seat, setHand, setOrder,
  setSeat, submit, submittedId,
} from '../support/scenario.js';

const failedCost = (r: GameEventOf<'action_resolved'>) => (r.payload.manipulation?.outcome === 'failed' ? 1 : 0);

describe('tempo: +1 upkeep, +1 gambit damage, cap 10 (reads and punished bluffs: see predictions and ledger)', () => {
  it('given tempo 10, when a gambit deals damage, then tempo stays at the cap', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 10 });
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Feint'), 'plr_2', { kinetic_intent: 'forced_line' })));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.tempo_delta).toEqual({});
    expect(seat(state, 'plr_1').tempo).toBe(10);
  });

  it('given a pressure card deals damage, then no gambit tempo', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 3 });
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2')));
    expect(resolutionOf(finishActions(state), id).payload.tactical_effect.tempo_delta).toEqual({});
  });
});

describe('exposure: +1 for a second action in a round', () => {
  it('when plr_1 takes two actions, then only the second adds 1 exposure', () => {
    const state = atAction();
    const [a, b] = setHand(state, 'plr_1', ['Needle', 'Needle']);
    const first = submittedId(submit(state, 'plr_1', attack(a!, 'plr_2')));
    const second = submittedId(act(state, 'plr_1', attack(b!, 'plr_3')));
    const events = finishActions(state);
    const r1 = resolutionOf(events, first);
    const r2 = resolutionOf(events, second);
    expect(r1.payload.tactical_effect.exposure_delta.plr_1 ?? 0).toBe(failedCost(r1));
    expect(r2.payload.tactical_effect.exposure_delta.plr_1).toBe(1 + failedCost(r2));
  });
});

describe('exposure: +1 for repeating last round’s kinetic intent', () => {
  function twoRounds(first: string, second: string) {
    const state = atAction();
    const id1 = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Feint'), 'plr_2', { kinetic_intent: first as 'tempo_swing' })));
    const r1 = resolutionOf(finishActions(state), id1);
    nextRound(state);
    driveTo(state, 'action');
    setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
    for (const p of state.players) setHand(state, p.player_id, []);
    setSeat(state, 'plr_1', { exposure: 0, emotions: { confidence: 0, tilt: 0, fear: 0 } });
    const id2 = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Feint'), 'plr_3', { kinetic_intent: second as 'tempo_swing' })));
    return { r1, r2: resolutionOf(finishActions(state), id2) };
  }

  it('given plr_1 swung tempo last round, when it swings tempo again, then exposure +1 and a note says it is predictable', () => {
    const { r1, r2 } = twoRounds('tempo_swing', 'tempo_swing');
    expect(r1.payload.rules_notes.some((n) => n.startsWith('predictable'))).toBe(false);
    expect(r2.payload.tactical_effect.exposure_delta.plr_1).toBe(1 + failedCost(r2));
    expect(r2.payload.rules_notes).toContain('predictable: plr_1 repeats tempo_swing');
  });

  it('given plr_1 swung tempo last round, when it draws a forced line instead, then no predictability exposure', () => {
    const { r2 } = twoRounds('tempo_swing', 'forced_line');
    expect(r2.payload.tactical_effect.exposure_delta.plr_1 ?? 0).toBe(failedCost(r2));
  });
});

describe('exposure: −1 for a round of passing; range 0–10', () => {
  it('given exposures 3, 3 and 0, when plr_1 acts and the others pass, then only plr_2 drops to 2', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 3 });
    setSeat(state, 'plr_2', { exposure: 3 });
    setSeat(state, 'plr_3', { exposure: 0 });
    const composure = giveCard(state, 'plr_1', 'Composure');
    okEvents(act(state, 'plr_1', { selected_action: { kind: 'play_card', payload: { card_id: composure } } }));
    const events = finishActions(state);
    const updated = onlyEvent(events, 'exposure_updated');
    expect(updated.payload.exposure_delta).toEqual({ plr_2: -1 });
    expect(state.players.map((p) => p.exposure)).toEqual([3, 2, 0]);
  });

  it('given a seat forced to pass after two rejections, then it counts as passing', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 2 });
    act(state, 'plr_1', { selected_action: { kind: 'dance' } });
    act(state, 'plr_1', { selected_action: { kind: 'dance' } });
    finishActions(state, () => PASS);
    expect(seat(state, 'plr_1').exposure).toBe(1);
  });

  it('given exposure 9, when plr_1 overreaches, then exposure stops at 10', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { exposure: 9, tempo: 1 });
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Overreach'), 'plr_2', { kinetic_intent: 'lockout' })));
    expect(resolutionOf(finishActions(state), id).payload.tactical_effect.exposure_delta).toEqual({ plr_1: 1 });
    expect(seat(state, 'plr_1').exposure).toBe(10);
  });
});
