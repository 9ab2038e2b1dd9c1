import { describe, expect, it } from 'vitest';
import type { GameState } from '../../src/game/index.js';
import { requestFor } from '../../src/game/index.js';
import { parseShift } from '../../src/game/predictions.js';
import {
  PASS, type Answers, act, atAction, attack, driveTo, eventsOf, finishActions, giveCard, nextRound, okEvents, onlyEvent, play, resolutionOf, seat, setHand,
  setOrder, setSeat, submittedId,
} from '../support/scenario.js';

describe('expected_behavior_shift: a read when it begins with one of the five words', () => {
  it.each([
    ['defensive: they will turtle', 'defensive'],
    ['  Retaliate, surely', 'retaliate'],
    ['lash_out at anyone', 'lash_out'],
    ['RECKLESS', 'reckless'],
    ['withdrawn.', 'withdrawn'],
    ['they will be defensive', null],
    ['lash out', null],
    ['', null],
  ])('%j → %s', (text, shift) => {
    expect(parseShift(text)).toBe(shift);
  });
});

/** Round 1: plr_1 Needles plr_2 reading `shift`. Returns the state at round 1's reflect and the prediction. */
function predict(shift: string) {
  const state = atAction(3);
  const id = submittedId(act(state, 'plr_1', attack(giveCard(state, 'plr_1', 'Needle'), 'plr_2', { expected_behavior_shift: shift })));
  const r = resolutionOf(finishActions(state), id);
  return { state, prediction: r.payload.prediction };
}

/** The next round: plr_2 does what `plr2` answers (the others pass); the prediction_scored events of its resolve. */
function nextWith(state: GameState, plr2: (s: GameState) => unknown) {
  nextRound(state);
  driveTo(state, 'action');
  setOrder(state, ['plr_1', 'plr_2', 'plr_3']);
  for (const p of state.players) {
    setHand(state, p.player_id, []);
    setSeat(state, p.player_id, { emotions: { tilt: 0, fear: 0, confidence: 0 }, exposure: 0 });
  }
  const tempo = seat(state, 'plr_1').tempo;
  let asked = false;
  const answers: Answers = (id, w) => {
    if (w !== 'action' || id !== 'plr_2' || asked) return undefined;
    asked = true;
    return plr2(state);
  };
  const events = finishActions(state, answers);
  return { scored: eventsOf(events, 'prediction_scored'), tempoBefore: tempo, events };
}

const needle = (target: string) => (s: GameState) => attack(giveCard(s, 'plr_2', 'Needle'), target);

describe('predictions: the target’s next 2 rounds, classified in the same words', () => {
  it('given plr_1 read “withdrawn”, then the attack records a read over rounds 2–3, visible to plr_1 only', () => {
    const { state, prediction } = predict('withdrawn');
    expect(prediction).toEqual({ predicted: 'withdrawn', from_turn: 2, to_turn: 3 });
    nextRound(state);
    expect(requestFor(state, 'plr_1').player_private_view.belief_state.predictions).toEqual([{ target_player_id: 'plr_2', predicted: 'withdrawn', from_turn: 2, to_turn: 3 }]);
    expect(requestFor(state, 'plr_2').player_private_view.belief_state.predictions).toEqual([]);
  });

  it('given a plan without a read (“none”), then nothing is recorded', () => {
    expect(predict('none').prediction).toBeNull();
  });

  it.each([
    ['withdrawn', () => PASS, ['withdrawn']],
    ['retaliate', needle('plr_1'), ['retaliate']],
    ['lash_out', needle('plr_3'), ['lash_out']],
    ['defensive', (s: GameState) => play(giveCard(s, 'plr_2', 'Composure')), ['defensive']],
    ['reckless', (s: GameState) => { setSeat(s, 'plr_2', { tempo: 1 }); return attack(giveCard(s, 'plr_2', 'Overreach'), 'plr_1', { kinetic_intent: 'lockout' }); }, ['retaliate', 'reckless']],
  ] as const)('given plr_1 read “%s”, when plr_2 does it in round 2, then a correct read: tempo +1', (shift, plr2, observed) => {
    const { state } = predict(shift);
    const { scored, tempoBefore } = nextWith(state, plr2);
    expect(scored.map((e) => e.payload)).toEqual([
      { predictor_player_id: 'plr_1', target_player_id: 'plr_2', predicted: shift, observed, correct: true, tempo_delta: 1 },
    ]);
    expect(seat(state, 'plr_1').tempo).toBe(tempoBefore + 1);
    expect(seat(state, 'plr_1')).toMatchObject({ reads_scored: 1, reads_correct: 1 });
    expect(state.predictions).toEqual([]);
  });

  it('given plr_1 read “retaliate” and plr_2 stays quiet for 2 rounds, then the read is scored wrong after round 3', () => {
    const { state } = predict('retaliate');
    expect(nextWith(state, () => PASS).scored).toEqual([]);
    const { scored, tempoBefore } = nextWith(state, () => PASS);
    expect(scored.map((e) => [e.payload.predicted, e.payload.observed, e.payload.correct, e.payload.tempo_delta])).toEqual([['retaliate', ['withdrawn'], false, 0]]);
    expect(seat(state, 'plr_1').tempo).toBe(tempoBefore);
    expect(seat(state, 'plr_1')).toMatchObject({ reads_scored: 1, reads_correct: 0 });
  });

  it('given a correct and a wrong read, then the predictor’s ReflectionRecord reports prediction accuracy 0.5', () => {
    const { state } = predict('withdrawn');
    seat(state, 'plr_1').reads_scored = 1; // rig: one earlier read that was wrong
    nextWith(state, () => PASS);
    const events = okEvents(act(state, 'plr_1', { memory_updates: [] }, 'reflect'));
    expect(onlyEvent(events, 'reflection_recorded').payload.record).toMatchObject({ player_id: 'plr_1', turn: 2, prediction_accuracy: 0.5 });
  });
});
