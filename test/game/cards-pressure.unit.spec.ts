import { describe, expect, it } from 'vitest';
import {
  act, atAction, attack, finishActions, giveCard, resolutionOf, seat, setSeat, submittedId,
} from '../support/scenario.js';

describe('Needle: 0 tempo, 1 damage, affect 0.35', () => {
  it('when plr_1 Needles plr_2 declaring lockout, then 1 damage lands, no tempo is won and the kinetic intent is only declared', () => {
    const state = atAction();
    setSeat(state, 'plr_1', { tempo: 0 });
    const needle = giveCard(state, 'plr_1', 'Needle');
    const id = submittedId(act(state, 'plr_1', attack(needle, 'plr_2', { kinetic_intent: 'lockout' })));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect).toMatchObject({ resolve_delta: { plr_2: -1 }, tempo_delta: {}, status_changes: [] });
    expect(r.payload.manipulation?.power).toBe(0.25); // 0.35 − 0.1 (no threat was made)
    expect(state.discard).toContain(needle);
  });

  it.each(['discard_pressure', 'lockout', 'combo_break', 'tempo_swing', 'forced_line'] as const)('accepts any declared kinetic intent (%s)', (kinetic_intent) => {
    const state = atAction();
    expect(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2', { kinetic_intent })).ok).toBe(true);
    expect(state.stack).toHaveLength(1);
  });
});

describe('Humiliate: 1 tempo, public only, 1 damage, audience trust toward the target −0.1', () => {
  it('when plr_1 humiliates plr_2 before plr_3 and plr_4, then the audience trusts plr_2 0.1 less (plus the contest audience effect)', () => {
    const state = atAction(4);
    setSeat(state, 'plr_1', { tempo: 1 });
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Humiliate'), 'plr_2', { emotional_intent: 'shame' })));
    expect(seat(state, 'plr_1').tempo).toBe(0);
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.resolve_delta).toEqual({ plr_2: -1 });
    const outcome = r.payload.manipulation!.outcome;
    const audience = outcome === 'failed' ? 0 : outcome === 'partial' ? -0.025 : -0.05;
    const trust = r.payload.affective_effect!.trust_delta;
    expect(Object.keys(trust.plr_3!)).toEqual(['plr_2']);
    expect(trust.plr_3!.plr_2).toBeCloseTo(-0.1 + audience, 10);
    expect(trust.plr_4!.plr_2).toBeCloseTo(-0.1 + audience, 10);
    expect(trust).not.toHaveProperty('plr_1');
    expect(trust).not.toHaveProperty('plr_2');
  });
});

describe('Whisper: 0 tempo, private only, the target trusts a named third seat 0.2 less', () => {
  it('when plr_1 whispers to plr_2 about plr_3, then plr_2 trusts plr_3 0.2 less and no damage lands', () => {
    const state = atAction();
    const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Whisper'), 'plr_2', { delivery_channel: 'private', emotional_intent: 'fear' }, { named_player_id: 'plr_3' })));
    const r = resolutionOf(finishActions(state), id);
    expect(r.payload.tactical_effect.resolve_delta).toEqual({});
    expect(r.payload.affective_effect!.trust_delta.plr_2).toEqual({ plr_3: -0.2 });
    expect(seat(state, 'plr_2').trust.plr_3).toBe(0);
    expect(r.payload.manipulation?.power).toBe(0.35); // 0.45 − 0.1
  });

  it('given only two seats, then a Whisper is never offered as legal (it needs a third seat)', async () => {
    const { requestFor } = await import('../../src/game/index.js');
    const state = atAction(2);
    giveCard(state, 'plr_1', 'Whisper');
    expect(requestFor(state, 'plr_1').legal_actions.map((a) => ('name' in a ? a.name : a.kind))).toEqual(['pass']);
  });
});
