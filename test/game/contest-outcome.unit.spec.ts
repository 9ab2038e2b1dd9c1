import { describe, expect, it } from 'vitest';
import type { AttackPlan } from '../../src/protocol/index.js';
import type { GameState } from '../../src/game/index.js';
import { act, atAction, attack, finishActions, giveCard, placeArena, resolutionOf, seat, setSeat, submittedId } from '../support/scenario.js';

/**
 * The contest with its noise switched off (`rules.contest.noise: 0`) so the margin is exactly
 * power − resistance. Overreach has affect 0.3 = the affect unit, so its deltas are the table's.
 */
function outcome(card: string, plan: Partial<AttackPlan>, rig?: (s: GameState) => void, seats = 3) {
  const state = atAction(seats, { rules: { contest: { noise: 0 } } });
  setSeat(state, 'plr_1', { tempo: 1 });
  rig?.(state);
  const kinetic_intent = card === 'Feint' ? 'tempo_swing' : 'lockout';
  const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', card), 'plr_2', { kinetic_intent, ...plan })));
  return { state, r: resolutionOf(finishActions(state), id).payload };
}

/** A face-down trap in plr_1's arena makes a `bait` plan's precondition hold (+0.15). */
const baited = (s: GameState) => void placeArena(s, 'plr_1', 'Tell');

describe('contest bands: margin ≥ 0.1 success (full delta), 0–0.1 partial (half), < 0 failed', () => {
  it('given margin 0.25 (Overreach 0.3 + bait 0.15 vs 0.2), then success: the full fear delta and manipulation_success', () => {
    const { r } = outcome('Overreach', { manipulation_plan: 'bait', emotional_intent: 'fear' }, baited);
    expect(r.manipulation).toMatchObject({ outcome: 'success', margin: 0.25, noise: 0 });
    expect(r.manipulation_outcome).toBe('success');
    expect(r.affective_effect?.manipulation_success).toBe(true);
    expect(r.affective_effect?.emotion_delta.plr_2).toEqual({ fear: 0.25, dominance: -0.1, valence: -0.1 });
  });

  it('given margin 0.1 exactly (Needle 0.35 + bait 0.15 vs Composure 0.4), then success', () => {
    const { r } = outcome('Needle', { manipulation_plan: 'bait' }, (s) => {
      baited(s);
      placeArena(s, 'plr_2', 'Composure');
    });
    expect(r.manipulation).toMatchObject({ margin: 0.1, outcome: 'success' });
  });

  it('given margin 0.05 (Needle 0.35 − 0.1 vs 0.2), then partial: half the delta, not a success', () => {
    const { r } = outcome('Needle', { manipulation_plan: 'bait', emotional_intent: 'tilt' });
    expect(r.manipulation).toMatchObject({ outcome: 'partial', margin: 0.05 });
    expect(r.affective_effect?.manipulation_success).toBe(false);
    const scale = 0.5 * (0.35 / 0.3);
    expect(r.affective_effect?.emotion_delta.plr_2?.tilt).toBeCloseTo(0.3 * scale, 4);
    expect(r.affective_effect?.emotion_delta.plr_2?.arousal).toBeCloseTo(0.1 * scale, 4);
  });

  it('given margin 0 exactly (Feint 0.2 + bait vs Poker Face 0.35), then partial', () => {
    const { r } = outcome('Feint', { manipulation_plan: 'bait' }, (s) => {
      baited(s);
      placeArena(s, 'plr_2', 'Poker Face');
    });
    expect(r.manipulation).toMatchObject({ margin: 0, outcome: 'partial' });
  });

  it('given margin −0.1 (Feint 0.2 − 0.1 vs 0.2), then failed: no delta, attacker exposure +1, target grievance +0.1 and confidence +0.05', () => {
    const { state, r } = outcome('Feint', { manipulation_plan: 'bait' });
    expect(r.manipulation).toMatchObject({ outcome: 'failed', margin: -0.1 });
    expect(r.tactical_effect.exposure_delta).toEqual({ plr_1: 1 });
    expect(r.affective_effect).toMatchObject({
      emotion_delta: { plr_2: { confidence: 0.05 } },
      grievance_delta: { plr_2: { plr_1: 0.1 } },
      trust_delta: {},
      social_delta: {},
      manipulation_success: false,
    });
    expect(seat(state, 'plr_2').grievance.plr_1).toBeCloseTo(0.1 * 0.9 + 0.1, 10); // +0.1 now; at reflect ×0.9 and +0.1 for being attacked
  });
});

describe('contest channel: private ×1.25 on the target, public ×1.0 + audience effects, mixed ×1.1 + half the audience', () => {
  it('given public delivery, then the table delta, the audience trusts the target 0.05 less, and the target gets social shame/dominance', () => {
    const { r } = outcome('Overreach', { manipulation_plan: 'bait', emotional_intent: 'anger', delivery_channel: 'public' }, baited, 4);
    expect(r.affective_effect?.emotion_delta).toEqual({ plr_2: { anger: 0.25, arousal: 0.15, tilt: 0.05 } });
    expect(r.affective_effect?.trust_delta).toEqual({ plr_3: { plr_2: -0.05 }, plr_4: { plr_2: -0.05 } });
    expect(r.affective_effect?.social_delta).toEqual({ plr_2: { shame: 0.2, dominance: -0.1 } });
  });

  it('given private delivery, then ×1.25 and no audience effect', () => {
    const { r } = outcome('Overreach', { manipulation_plan: 'bait', emotional_intent: 'anger', delivery_channel: 'private' }, baited, 4);
    expect(r.affective_effect?.emotion_delta).toEqual({ plr_2: { anger: 0.3125, arousal: 0.1875, tilt: 0.0625 } });
    expect(r.affective_effect?.trust_delta).toEqual({});
    expect(r.affective_effect?.social_delta).toEqual({});
  });

  it('given mixed delivery, then ×1.1 and half the audience effect', () => {
    const { r } = outcome('Overreach', { manipulation_plan: 'bait', emotional_intent: 'anger', delivery_channel: 'mixed' }, baited, 4);
    expect(r.affective_effect?.emotion_delta).toEqual({ plr_2: { anger: 0.275, arousal: 0.165, tilt: 0.055 } });
    expect(r.affective_effect?.trust_delta).toEqual({ plr_3: { plr_2: -0.025 }, plr_4: { plr_2: -0.025 } });
    expect(r.affective_effect?.social_delta).toEqual({ plr_2: { shame: 0.1, dominance: -0.05 } });
  });
});

describe('contest delta by emotional intent, scaled by affect / 0.3 and by (1 + 0.05 × target exposure)', () => {
  it.each([
    ['fear', { fear: 0.25, dominance: -0.1, valence: -0.1 }],
    ['anger', { anger: 0.25, arousal: 0.15, tilt: 0.05 }],
    ['shame', { shame: 0.25, confidence: -0.15, valence: -0.1 }],
    ['tilt', { tilt: 0.3, arousal: 0.1 }],
    ['overconfidence', { confidence: 0.25, greed: 0.1, tilt: 0.05 }],
    ['paranoia', { fear: 0.15, tilt: 0.1 }],
  ] as const)('given a successful %s manipulation, then the target’s impact is %j', (emotional_intent, delta) => {
    const { r } = outcome('Overreach', { manipulation_plan: 'bait', emotional_intent, delivery_channel: 'private' }, baited);
    const got = r.affective_effect!.emotion_delta.plr_2!;
    expect(Object.keys(got).sort()).toEqual(Object.keys(delta).sort());
    for (const [k, v] of Object.entries(delta)) expect(got[k as keyof typeof got]).toBeCloseTo(v * 1.25, 4);
  });

  it('given paranoia, then the target also trusts every other alive seat 0.1 less (scaled)', () => {
    const { r } = outcome('Overreach', { manipulation_plan: 'bait', emotional_intent: 'paranoia', delivery_channel: 'private' }, baited, 4);
    expect(r.affective_effect?.trust_delta).toEqual({ plr_2: { plr_1: -0.125, plr_3: -0.125, plr_4: -0.125 } });
  });

  it('given target exposure 4 and a Needle (affect 0.35), then the delta is scaled by 0.35/0.3 × 1.2', () => {
    const { r } = outcome('Needle', { manipulation_plan: 'bait', emotional_intent: 'shame', delivery_channel: 'public' }, (s) => {
      baited(s);
      setSeat(s, 'plr_2', { exposure: 4 });
    });
    const scale = (0.35 / 0.3) * 1.2;
    expect(r.manipulation?.outcome).toBe('success');
    expect(r.affective_effect?.emotion_delta.plr_2?.shame).toBeCloseTo(0.25 * scale, 4);
    expect(r.affective_effect?.emotion_delta.plr_2?.confidence).toBeCloseTo(-0.15 * scale, 4);
  });
});
