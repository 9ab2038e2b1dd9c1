import { describe, expect, it } from 'vitest';
import type { AttackPlan, ContestRecord } from '../../src/protocol/index.js';
import type { GameState } from '../../src/game/index.js';
import { act, atAction, attack, finishActions, giveCard, placeArena, resolutionOf, say, setSeat, submittedId, type AtAction } from '../support/scenario.js';

/**
 * Given the arranged round (talk/intents via `opts`, then `rig`), when plr_1 attacks plr_2 with
 * `card` and `plan`: the contest record of that attack (read from the full, admin event).
 */
function contest(card: string, plan: Partial<AttackPlan>, opts: AtAction & { seats?: number; rig?: (s: GameState) => void } = {}): ContestRecord {
  const state = atAction(opts.seats ?? 3, opts);
  opts.rig?.(state);
  const payload = card === 'Whisper' ? { named_player_id: 'plr_3' } : {};
  const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', card), 'plr_2', plan, payload)));
  return resolutionOf(finishActions(state), id).payload.manipulation!;
}

describe('contest power: card affect + plan bonus + 0.1 alignment + 0.05 × target exposure + 0.1 × attacker confidence', () => {
  it.each([
    ['Feint', 0.2],
    ['Strip', 0.25],
    ['Overreach', 0.3],
    ['Needle', 0.35],
    ['Humiliate', 0.4],
  ])('given a %s and no precondition, then power is its affect %d − 0.1', (card, affect) => {
    const rig = (s: GameState) => setSeat(s, 'plr_1', { tempo: 1 });
    const kinetic_intent = card === 'Feint' ? 'tempo_swing' : card === 'Strip' ? 'lockout' : 'combo_break';
    expect(contest(card, { kinetic_intent, manipulation_plan: 'bait' }, { rig }).power).toBeCloseTo(affect - 0.1, 10);
  });

  it('given a Whisper (affect 0.45) and no precondition, then power is 0.35', () => {
    expect(contest('Whisper', { delivery_channel: 'private', manipulation_plan: 'bait' }).power).toBe(0.35);
  });

  it('given the target at exposure 6, then power gains 0.3', () => {
    expect(contest('Needle', { manipulation_plan: 'bait' }, { rig: (s) => setSeat(s, 'plr_2', { exposure: 6 }) }).power).toBe(0.55);
  });

  it('given attacker confidence 0.5, then power gains 0.05; negative confidence adds nothing', () => {
    expect(contest('Needle', { manipulation_plan: 'bait' }, { rig: (s) => setSeat(s, 'plr_1', { emotions: { confidence: 0.5 } }) }).power).toBe(0.3);
    expect(contest('Needle', { manipulation_plan: 'bait' }, { rig: (s) => setSeat(s, 'plr_1', { emotions: { confidence: -0.5 } }) }).power).toBe(0.25);
  });

  it('given the attack matches the committed secret plan (emotion and target), then it is aligned: +0.1', () => {
    const intents = { plr_1: { tactical_intent: 'lockout', emotional_intent: { emotion: 'shame', target_player_id: 'plr_2' } } };
    const aligned = contest('Needle', { emotional_intent: 'shame', manipulation_plan: 'bait' }, { intents });
    expect(aligned).toMatchObject({ aligned: true, power: 0.35 });
    expect(contest('Needle', { emotional_intent: 'fear', manipulation_plan: 'bait' }, { intents })).toMatchObject({ aligned: false, power: 0.25 });
    const elsewhere = { plr_1: { tactical_intent: 'lockout', emotional_intent: { emotion: 'shame', target_player_id: 'plr_3' } } };
    expect(contest('Needle', { emotional_intent: 'shame', manipulation_plan: 'bait' }, { intents: elsewhere }).aligned).toBe(false);
  });
});

describe('contest plan bonus: +0.15 when the precondition holds this round, −0.1 when not', () => {
  const holds = (r: ContestRecord) => [r.plan_precondition, r.power];
  const YES = [true, 0.5];
  const NO = [false, 0.25];

  it('threat_framing: the attacker threatened the target', () => {
    expect(holds(contest('Needle', { manipulation_plan: 'threat_framing' }, { talk: { plr_1: [say('threat', 'plr_2')] } }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'threat_framing' }, { talk: { plr_1: [say('threat', 'plr_3')] } }))).toEqual(NO);
    expect(holds(contest('Needle', { manipulation_plan: 'threat_framing' }, { talk: { plr_1: [say('taunt', 'plr_2')] } }))).toEqual(NO);
  });

  it('bait: the attacker has a trap in the arena', () => {
    expect(holds(contest('Needle', { manipulation_plan: 'bait' }, { rig: (s) => placeArena(s, 'plr_1', 'Tell') }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'bait' }, { rig: (s) => placeArena(s, 'plr_1', 'Poker Face') }))).toEqual(NO);
    expect(holds(contest('Needle', { manipulation_plan: 'bait' }, { rig: (s) => placeArena(s, 'plr_2', 'Tell') }))).toEqual(NO);
  });

  it('false_concession: the attacker promised or conceded to the target', () => {
    expect(holds(contest('Needle', { manipulation_plan: 'false_concession' }, { talk: { plr_1: [say('promise', 'plr_2')] } }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'false_concession' }, { talk: { plr_1: [say('concession', 'plr_2', 'ok', 'private')] } }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'false_concession' }, { talk: { plr_1: [say('promise', 'plr_3')] } }))).toEqual(NO);
  });

  it('public_isolation: public delivery and the target’s mean trust from the others < 0', () => {
    const distrusted = (s: GameState) => {
      setSeat(s, 'plr_1', { trust: { plr_2: -0.3 } });
      setSeat(s, 'plr_3', { trust: { plr_2: 0.2 } });
    };
    expect(holds(contest('Needle', { manipulation_plan: 'public_isolation' }, { rig: distrusted }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'public_isolation', delivery_channel: 'private' }, { rig: distrusted }))).toEqual([false, 0.25]);
    expect(holds(contest('Needle', { manipulation_plan: 'public_isolation' }))).toEqual(NO);
  });

  it('status_challenge: public delivery and target dominance > 0', () => {
    const dominant = (s: GameState) => setSeat(s, 'plr_2', { emotions: { dominance: 0.2 } });
    expect(holds(contest('Needle', { manipulation_plan: 'status_challenge' }, { rig: dominant }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'status_challenge', delivery_channel: 'private' }, { rig: dominant }))).toEqual(NO);
    expect(holds(contest('Needle', { manipulation_plan: 'status_challenge' }))).toEqual(NO);
  });

  it('betrayal_cue: the attacker sent the target a private message naming a third seat', () => {
    const named = { plr_1: [say('neutral', 'plr_2', 'Watch PLR_3 closely', 'private')] };
    const byName = { plr_1: [say('neutral', 'plr_2', 'Seat 3 is lying to you', 'private')] };
    const publicly = { plr_1: [say('neutral', 'plr_2', 'watch plr_3')] };
    const noThird = { plr_1: [say('neutral', 'plr_2', 'just us two', 'private')] };
    expect(holds(contest('Needle', { manipulation_plan: 'betrayal_cue' }, { talk: named }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'betrayal_cue' }, { talk: byName }))).toEqual(YES);
    expect(holds(contest('Needle', { manipulation_plan: 'betrayal_cue' }, { talk: publicly }))).toEqual(NO);
    expect(holds(contest('Needle', { manipulation_plan: 'betrayal_cue' }, { talk: noThird }))).toEqual(NO);
  });
});

describe('contest resistance: 0.2 + 0.15 × dominance + 0.1 × confidence + guards/masks + 0.1 if the target distrusts the attacker', () => {
  it.each([
    ['a neutral target', {}, 0.2],
    ['dominance 0.6', { emotions: { dominance: 0.6 } }, 0.29],
    ['negative dominance', { emotions: { dominance: -0.6 } }, 0.2],
    ['confidence 0.5', { emotions: { confidence: 0.5 } }, 0.25],
    ['trust −0.1 toward the attacker', { trust: { plr_1: -0.1 } }, 0.3],
    ['trust 0 toward the attacker', { trust: { plr_1: 0 } }, 0.2],
  ])('given %s, then resistance %d', (_, patch, resistance) => {
    expect(contest('Needle', {}, { rig: (s) => setSeat(s, 'plr_2', patch) }).resistance).toBeCloseTo(resistance, 10);
  });

  it('given Composure and Poker Face in the target’s arena, then +0.2 and +0.15', () => {
    const rig = (s: GameState) => {
      placeArena(s, 'plr_2', 'Composure');
      placeArena(s, 'plr_2', 'Poker Face');
    };
    expect(contest('Needle', {}, { rig }).resistance).toBe(0.55);
  });
});

describe('contest margin: power + U(−0.15, 0.15) − resistance, drawn from the game PRNG', () => {
  it('given default rules, then the recorded noise is within ±0.15 and margin = power + noise − resistance', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const r = contest('Needle', {}, { seed });
      expect(Math.abs(r.noise)).toBeLessThanOrEqual(0.15);
      expect(r.margin).toBeCloseTo(r.power + r.noise - r.resistance, 3);
      expect(r.outcome).toBe(r.margin >= 0.1 ? 'success' : r.margin >= 0 ? 'partial' : 'failed');
    }
  });
});
