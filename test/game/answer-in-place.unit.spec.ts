/**
 * answerInPlace is stepInPlace for a caller that built the envelope itself (the expert's
 * rollouts): it must give the same events and the same state, and refuse what stepInPlace refuses.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/agents/builtin/index.js';
import { answerInPlace, awaiting, initialState, requestFor, stepInPlace } from '../../src/game/index.js';

describe('answerInPlace', () => {
  it('given a balanced game, when every answer goes through both paths, then the same events and the same state at every step', () => {
    const a = initialState({ seats: 4 }, 77);
    const agents = [0, 1, 2, 3].map((i) => createAgent('balanced', 77, i));
    stepInPlace(a, { type: 'start' });
    const b = structuredClone(a);
    let steps = 0;
    for (let next = awaiting(a); next && steps < 400; next = awaiting(a), steps++) {
      const seat = next.seats[0]!;
      const decision = agents[Number(seat.slice(4)) - 1]!.decide(requestFor(a, seat));
      const viaStep = stepInPlace(a, { type: 'decision', player_id: seat, window: next.window, decision, ts: a.ts });
      const viaAnswer = answerInPlace(b, seat, next.window, decision);
      expect(JSON.stringify(viaAnswer)).toBe(JSON.stringify(viaStep));
    }
    expect(steps).toBeGreaterThan(50);
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
  });

  it('given a seat that is not awaited, or the wrong window, or a finished game, then the same refusals as stepInPlace', () => {
    const s = initialState({ seats: 4 }, 78);
    expect(answerInPlace(s, 'plr_1', 'intent', null)).toEqual({ ok: false, rejection: { code: 'game/not_started', message: 'start the game first' } });
    stepInPlace(s, { type: 'start' });
    const next = awaiting(s)!;
    // A well-formed id of no seat at this table: never awaited.
    const other = 'plr_9';
    const before = JSON.stringify(s);
    expect(answerInPlace(s, other, next.window, null)).toEqual(stepInPlace(structuredClone(s), { type: 'decision', player_id: other, window: next.window, decision: null }));
    expect(answerInPlace(s, next.seats[0]!, 'reflect', null)).toMatchObject({ ok: false, rejection: { code: 'turn/wrong_window' } });
    expect(JSON.stringify(s)).toBe(before);
    s.status = 'done';
    expect(answerInPlace(s, next.seats[0]!, next.window, null)).toMatchObject({ ok: false, rejection: { code: 'game/over' } });
  });
});
