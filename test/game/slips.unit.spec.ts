import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/game/index.js';
import { slipChance } from '../../src/game/slip.js';
import type { GameState } from '../../src/game/index.js';
import { act, atAction, attack, finishActions, giveCard, neutral, play, resolutionOf, seat, setHand, setSeat, submittedId } from '../support/scenario.js';

describe('slip probability: min(0.5, 0.4·tilt⁺ + 0.25·(fear − 0.4)⁺ + 0.25·(confidence − 0.6)⁺)', () => {
  it.each([
    ['calm', {}, 0],
    ['tilt 0.5', { tilt: 0.5 }, 0.2],
    ['negative tilt', { tilt: -0.8 }, 0],
    ['fear 0.4 (the threshold)', { fear: 0.4 }, 0],
    ['fear 0.8', { fear: 0.8 }, 0.1],
    ['confidence 0.6 (the threshold)', { confidence: 0.6 }, 0],
    ['confidence 1', { confidence: 1 }, 0.1],
    ['tilt 0.5, fear 0.8, confidence 1', { tilt: 0.5, fear: 0.8, confidence: 1 }, 0.4],
    ['everything at 1 (capped)', { tilt: 1, fear: 1, confidence: 1 }, 0.5],
  ])('given %s, then p = %d', (_, e, p) => {
    expect(slipChance(neutral(e), DEFAULT_RULES.slip)).toBeCloseTo(p, 10);
  });
});

/**
 * A certain slip: the slip rules set so that p = 1 at tilt 1 (`cap: 1, tilt: 1`), which makes the
 * game PRNG's draw irrelevant. Everything else is the default.
 */
function slipping(seats = 3): GameState {
  const state = atAction(seats, { rules: { slip: { cap: 1, tilt: 1 } } });
  setSeat(state, 'plr_1', { emotions: { tilt: 1 }, tempo: 1 });
  return state;
}

function resolveAttack(state: GameState, name: string, plan: Parameters<typeof attack>[2] = {}) {
  const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', name), 'plr_2', plan)));
  return resolutionOf(finishActions(state), id).payload;
}

describe('a slip halves the tactical effect (round down) and costs the actor 1 exposure', () => {
  it('given a certain slip, when plr_1 Feints with tempo_swing, then 1 damage instead of 2, 1 tempo swung instead of 2, exposure +1, noted', () => {
    const state = slipping();
    setSeat(state, 'plr_2', { tempo: 5 });
    const r = resolveAttack(state, 'Feint', { kinetic_intent: 'tempo_swing' });
    expect(r.slipped).toBe(true);
    expect(r.tactical_effect.resolve_delta).toEqual({ plr_2: -1 });
    expect(r.tactical_effect.tempo_delta).toEqual({ plr_1: 2, plr_2: -1 }); // 1 swung + 1 gambit damage
    expect(r.tactical_effect.exposure_delta.plr_1).toBe(1 + (r.manipulation?.outcome === 'failed' ? 1 : 0));
    expect(r.rules_notes).toContain('slip: plr_1 misplays; tactical effect halved, exposure +1');
  });

  it('given a certain slip, when plr_1 Overreaches, then 2 damage instead of 4 (its own exposure cost is not halved)', () => {
    const r = resolveAttack(slipping(), 'Overreach', { kinetic_intent: 'combo_break' });
    expect(r.tactical_effect.resolve_delta).toEqual({ plr_2: -2 });
    expect(r.tactical_effect.exposure_delta.plr_1).toBe(2 + 1 + (r.manipulation?.outcome === 'failed' ? 1 : 0));
  });

  it('given a certain slip, when plr_1 Strips with discard pressure, then plr_2 discards 1 card instead of 2', () => {
    const state = slipping();
    setHand(state, 'plr_2', ['Needle', 'Needle', 'Needle']);
    resolveAttack(state, 'Strip', { kinetic_intent: 'discard_pressure' });
    expect(seat(state, 'plr_2').hand).toHaveLength(2);
  });

  it('given a certain slip, when plr_1 Strips with lockout, then half a lockout rounds down to none (and its 1 damage to 0)', () => {
    const state = slipping();
    const r = resolveAttack(state, 'Strip', { kinetic_intent: 'lockout' });
    expect(r.tactical_effect.status_changes).toEqual([]);
    expect(r.tactical_effect.resolve_delta).toEqual({});
  });

  it('given a certain slip, when plr_1 plays Poker Face, then its exposure drops by 1 instead of 3 (and +1 for the slip)', () => {
    const state = slipping();
    setSeat(state, 'plr_1', { exposure: 5 });
    const id = submittedId(act(state, 'plr_1', play(giveCard(state, 'plr_1', 'Poker Face'))));
    const r = resolutionOf(finishActions(state), id).payload;
    expect(r.slipped).toBe(true);
    expect(r.tactical_effect.exposure_delta.plr_1 ?? 0).toBe(0); // +1 slip − 1 mask
    expect(seat(state, 'plr_1').exposure).toBe(5);
  });

  it('given slip chance 0 (tilt 0, fear ≤ 0.4, confidence ≤ 0.6), then no action ever slips, whatever the seed', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const state = atAction(3, { seed });
      setSeat(state, 'plr_1', { emotions: { tilt: 0, fear: 0.4, confidence: 0.6 } });
      expect(resolveAttack(state, 'Needle').slipped).toBe(false);
    }
  });
});
