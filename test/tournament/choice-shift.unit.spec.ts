import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { ChoiceShiftTally, MIN_SHIFT_SAMPLES } from '../../src/tournament/choice-shift.js';

const ev = (type: string, turn: number, payload: Record<string, unknown>) => ({ type, turn, payload }) as unknown as GameEvent;
const attack = (turn: number, actor: string, target: string, intent: string, outcome: string) =>
  ev('action_resolved', turn, { actor_player_id: actor, attack_plan: { target_player_id: target, manipulation_plan: 'bait', emotional_intent: intent }, manipulation_outcome: outcome, slipped: false });
const guard = (turn: number, actor: string) => ev('action_resolved', turn, { actor_player_id: actor, card: { type: 'guard' }, attack_plan: null, manipulation_outcome: null, slipped: false });

/**
 * alpha (plr_1) frightens bravo (plr_2) in round 1; bravo attacks in rounds 1 and 3 and answers
 * the fright in round 2 with `next` (a guard, or an attack of its own).
 */
const game = (next: 'guard' | 'attack'): GameEvent[] => [
  ev('game_started', 0, { players: [{ player_id: 'plr_1', seat: 0 }, { player_id: 'plr_2', seat: 1 }] }),
  attack(1, 'plr_1', 'plr_2', 'fear', 'success'),
  attack(1, 'plr_2', 'plr_1', 'anger', 'failed'),
  next === 'guard' ? guard(2, 'plr_2') : attack(2, 'plr_2', 'plr_1', 'anger', 'failed'),
  attack(3, 'plr_2', 'plr_1', 'anger', 'failed'),
];

const fold = (games: GameEvent[][]) => {
  const t = new ChoiceShiftTally();
  for (const g of games) t.add(g, ['alpha', 'bravo']);
  return t.figures();
};

describe('emotion → choice shift', () => {
  it('given a target that always guards after a fright, then its attack share drops from its own baseline to 0, pooled and per target', () => {
    const f = fold(Array.from({ length: MIN_SHIFT_SAMPLES }, () => game('guard')));
    const fear = f.by_intent.find((r) => r.emotional_intent === 'fear')!;
    // bravo's rounds: attack, guard, attack → baseline attack share 2/3, defensive 1/3.
    expect(fear).toEqual({
      target: null,
      emotional_intent: 'fear',
      samples: 5,
      clusters: 5,
      attack_share_after: 0,
      attack_share_baseline: 0.6667,
      attack_shift: { value: -0.666667, low: -0.666667, high: -0.666667 },
      defensive_share_after: 1,
      defensive_share_baseline: 0.3333,
      defensive_shift: { value: 0.666667, low: 0.666667, high: 0.666667 },
      status: 'ok',
      few_samples: true,
    });
    expect(f.by_target.find((r) => r.target === 'bravo' && r.emotional_intent === 'fear')).toEqual({ ...fear, target: 'bravo' });
    // alpha was never manipulated: its rows exist, empty.
    expect(f.by_target.find((r) => r.target === 'alpha' && r.emotional_intent === 'fear')).toMatchObject({ samples: 0, attack_share_after: null, attack_share_baseline: 1, attack_shift: null, status: 'not_enough_samples' });
    expect(f.by_intent.map((r) => r.emotional_intent)).toEqual(['fear', 'anger', 'shame', 'tilt', 'overconfidence', 'paranoia']);
    expect(f.by_target.map((r) => r.target)).toEqual([...Array(6).fill('alpha'), ...Array(6).fill('bravo')]);
  });

  it('given fewer samples than the minimum, then the shares stand and the shifts are withheld', () => {
    const fear = fold([game('guard'), game('guard')]).by_intent[0]!;
    expect(fear).toMatchObject({ samples: 2, attack_share_after: 0, attack_shift: null, defensive_shift: null, status: 'not_enough_samples' });
  });

  it('given mixed answers, then the interval holds the shift, and the same games give the same interval (seeded)', () => {
    const games = [game('guard'), game('attack'), game('guard'), game('guard'), game('attack'), game('guard'), game('guard'), game('attack')];
    const a = fold(games).by_intent[0]!;
    expect(a.samples).toBe(8);
    expect(a.attack_shift!.value).toBeCloseTo(a.attack_share_after! - a.attack_share_baseline!, 3);
    expect(a.attack_shift!.low).toBeLessThan(a.attack_shift!.value);
    expect(a.attack_shift!.high).toBeGreaterThan(a.attack_shift!.value);
    expect(fold(games).by_intent[0]).toEqual(a);
  });

  it('given a manipulation whose target did not act the round after (eliminated, or the game ended), then it is no sample', () => {
    const cut = game('guard').filter((e) => e.turn !== 2);
    expect(fold([cut]).by_intent[0]!.samples).toBe(0);
  });
});
