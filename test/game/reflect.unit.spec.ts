import { describe, expect, it } from 'vitest';
import { viewEvent } from '../../src/game/index.js';
import { act, atAction, attack, eventsOf, finishActions, giveCard, neutral, seat, setSeat } from '../support/scenario.js';

/** Given plr_1's emotions, baseline and this round's impacts; when the round reaches reflect: plr_1's emotion_updated. */
function reflectOf(opts: { emotions?: Parameters<typeof neutral>[0]; baseline?: Parameters<typeof neutral>[0]; impacts?: object; social?: object }) {
  const state = atAction(2);
  const p = seat(state, 'plr_1');
  p.emotions = neutral(opts.emotions);
  p.baseline = neutral(opts.baseline);
  p.impacts = { ...opts.impacts };
  p.social = { ...opts.social };
  const events = finishActions(state);
  const e = eventsOf(events, 'emotion_updated').find((x) => x.payload.player_id === 'plr_1')!;
  return { state, e, events };
}

describe('emotion update at reflect: E ← clamp(0.82·E + capped impacts + 0.25·social + 0.18·baseline, −1, 1)', () => {
  it('given anger 0.5 and no impacts, then it decays to 0.41', () => {
    expect(reflectOf({ emotions: { anger: 0.5 } }).e.payload.emotions?.anger).toBe(0.41);
  });

  it('given confidence at its baseline 0.2, then it stays there (the bias is (1 − 0.82) × baseline)', () => {
    expect(reflectOf({ emotions: { confidence: 0.2 }, baseline: { confidence: 0.2 } }).e.payload.emotions?.confidence).toBe(0.2);
  });

  it('given a seat away from its baseline, then each round pulls it back toward it', () => {
    expect(reflectOf({ emotions: { anger: 0 }, baseline: { anger: 0.5 } }).e.payload.emotions?.anger).toBe(0.09);
  });

  it('given impacts of +0.6 and −0.3, then the first is capped at +0.45 and the second lands whole', () => {
    const { e } = reflectOf({ impacts: { fear: 0.6, valence: -0.3 } });
    expect(e.payload.emotions).toMatchObject({ fear: 0.45, valence: -0.3 });
  });

  it('given an impact of −0.9, then it is capped at −0.45', () => {
    expect(reflectOf({ impacts: { shame: -0.9 } }).e.payload.emotions?.shame).toBe(-0.45);
  });

  it('given a social impact of 0.2, then it weighs 0.25 (uncapped): +0.05; a social 2 adds 0.5', () => {
    expect(reflectOf({ social: { shame: 0.2 } }).e.payload.emotions?.shame).toBe(0.05);
    expect(reflectOf({ social: { shame: 2 } }).e.payload.emotions?.shame).toBe(0.5);
  });

  it('given tilt 0.9 and an impact of +0.45, then the result is clamped to 1', () => {
    expect(reflectOf({ emotions: { tilt: 0.9 }, impacts: { tilt: 0.45 } }).e.payload.emotions?.tilt).toBe(1);
  });

  it('then the impacts are spent: the state’s impacts and social are empty after reflect', () => {
    const { state } = reflectOf({ impacts: { fear: 0.2 }, social: { shame: 0.1 } });
    expect(seat(state, 'plr_1')).toMatchObject({ impacts: {}, social: {} });
  });
});

describe('trust and grievance at reflect: grievance ×0.9, and each attack received: trust −0.05, grievance +0.1 toward the attacker', () => {
  it('given grievance 0.5 toward plr_2 and no attacks, then it decays to 0.45', () => {
    const state = atAction(2);
    setSeat(state, 'plr_1', { grievance: { plr_2: 0.5 } });
    finishActions(state);
    expect(seat(state, 'plr_1').grievance.plr_2).toBe(0.45);
  });

  it('given plr_2 attacked plr_1 twice, then plr_1 trusts plr_2 0.1 less and holds +0.2 grievance (after decay)', () => {
    const state = atAction(2);
    act(state, 'plr_1', { selected_action: { kind: 'pass' } });
    setSeat(state, 'plr_1', { grievance: { plr_2: 0.5 } });
    const [a, b] = [giveCard(state, 'plr_2', 'Feint'), giveCard(state, 'plr_2', 'Feint')];
    const events = finishActions(state, (id, w) => {
      if (w !== 'action' || id !== 'plr_2') return undefined;
      const card = seat(state, 'plr_2').hand.find((c) => c === a || c === b);
      return card ? attack(card, 'plr_1', { kinetic_intent: 'forced_line' }) : undefined;
    });
    const e = eventsOf(events, 'emotion_updated').find((x) => x.payload.player_id === 'plr_1')!;
    const fromContest = eventsOf(events, 'action_resolved').reduce((g, r) => g + (r.payload.affective_effect?.grievance_delta.plr_1?.plr_2 ?? 0), 0);
    expect(e.payload.trust?.plr_2).toBeCloseTo(0.2 - 0.1, 10);
    expect(e.payload.grievance?.plr_2).toBeCloseTo(Math.min(1, (0.5 + fromContest) * 0.9 + 0.2), 4);
  });
});

describe('emotion_updated is logged for every change and hides the vector from the other seats', () => {
  it('given reflect, then each alive seat gets one event; others see only its public tell', () => {
    const { events } = reflectOf({ emotions: { anger: 0.5 } });
    const updates = eventsOf(events, 'emotion_updated');
    expect(updates.map((u) => u.payload.player_id).sort()).toEqual(['plr_1', 'plr_2']);
    const mine = updates.find((u) => u.payload.player_id === 'plr_1')!;
    const other = viewEvent(mine, { role: 'seat', player_id: 'plr_2' }).payload;
    expect(other).not.toHaveProperty('emotions');
    expect(other).not.toHaveProperty('trust');
    expect(other).not.toHaveProperty('grievance');
    expect(other).toHaveProperty('tell');
    expect(viewEvent(mine, { role: 'seat', player_id: 'plr_1' }).payload).toHaveProperty('emotions');
  });
});
