import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAgent } from '../../src/agents/builtin/index.js';
import { answerInPlace } from '../../src/game/index.js';
import type { TurnPlanRequest } from '../../src/protocol/index.js';
import { judgeAnswer, type AnswerScorer } from '../../src/research/position-eval.js';
import { answerKey, legalMoves, moveDecision } from '../../src/research/position-options.js';
import { scorePosition } from '../../src/research/position-score.js';
import type { PositionRecord } from '../../src/research/position-record.js';
import { actionAt, AGENTS } from './action-at.js';

const positions = fc.record({ seed: fc.integer({ min: 1, max: 10_000 }), k: fc.integer({ min: 0, max: 60 }) });

describe('position moves', () => {
  it('every move the bank enumerates is legal as the bank plays it, and its answer keys back to it', () => {
    fc.assert(
      fc.property(positions, ({ seed, k }) => {
        const at = actionAt(seed, k);
        if (!at) return;
        const moves = legalMoves(at.request);
        expect(moves.at(-1)?.key).toBe('pass');
        expect(new Set(moves.map((m) => m.key)).size).toBe(moves.length);
        for (const m of moves) {
          const decision = moveDecision(at.request, m);
          expect(answerKey(at.request, decision)).toBe(m.key);
          const s = structuredClone(at.state);
          const res = answerInPlace(s, at.request.player_id, 'action', decision);
          expect(res.ok && !res.events.some((e) => e.type === 'action_rejected'), `${m.key} refused`).toBe(true);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a built-in answer names one of the moves, whatever its framing', () => {
    fc.assert(
      fc.property(positions, fc.constantFrom(...AGENTS), ({ seed, k }, agent) => {
        const at = actionAt(seed, k);
        if (!at) return;
        const keys = legalMoves(at.request).map((m) => m.key);
        expect(keys).toContain(answerKey(at.request, createAgent(agent, seed, 0).decide(at.request)));
      }),
      { numRuns: 25 },
    );
  });
});

/** Made-up values are read by key: the pre-scored move's value stands for the exact answer's. */
const byKey: AnswerScorer = (p, answer) => p.options.find((o) => o.key === answerKey(p.request, answer))?.value ?? null;

/** A position with made-up values over the request's real moves (judged by key, not by rollouts). */
function position(request: TurnPlanRequest, values: readonly number[]): PositionRecord {
  const options = legalMoves(request).map((m, i) => ({ key: m.key, value: values[i % values.length]! }));
  const best = options.reduce((b, o) => (o.value > b.value ? o : b), options[0]!);
  const scoring = { worlds: 1, kept: 1, horizon: 1, seed: 1 };
  return { position_version: 1, position_id: `${request.game_id}:0`, game_id: request.game_id, seed: 1, rules_version: 'x', seq: 0, turn: request.turn, player_id: request.player_id, seat: 0, agent: 'balanced', window: 'action', request, options, best: best.key, played: null, scoring };
}

describe('judging an answer', () => {
  const at = actionAt(7, 3)!;
  const values = fc.array(fc.integer({ min: -400, max: 400 }).map((x) => x / 4), { minLength: 1, maxLength: 40 });

  it('regret is best − chosen, never negative; the best move has none and agrees', () => {
    fc.assert(
      fc.property(values, (vs) => {
        const p = position(at.request, vs);
        for (const o of p.options) {
          const r = judgeAnswer(p, moveDecision(at.request, legalMoves(at.request).find((m) => m.key === o.key)!), null, byKey);
          expect(r.legal).toBe(true);
          expect(r.regret).toBeCloseTo(p.options.find((x) => x.key === p.best)!.value - o.value, 6);
          expect(r.regret).toBeGreaterThanOrEqual(0);
          expect(r.agrees).toBe(o.key === p.best);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('no answer and an illegal answer both cost what the forced pass costs', () => {
    const p = position(at.request, [3, -1, 7, 0.5]);
    const pass = p.options.find((o) => o.key === 'pass')!.value;
    const best = p.options.find((o) => o.key === p.best)!.value;
    const none = judgeAnswer(p, undefined, 'skill/timeout', byKey);
    expect(none).toMatchObject({ answered: false, legal: false, problem: 'skill/timeout', agrees: false });
    expect(none.regret).toBeCloseTo(best - pass, 6);
    const junk = judgeAnswer(p, { selected_action: { kind: 'play_card', payload: { card_id: 'card_nope' } } }, null, byKey);
    expect(junk).toMatchObject({ answered: true, legal: false, problem: 'action/card_not_in_hand', agrees: false });
    expect(junk.regret).toBeCloseTo(best - pass, 6);
    expect(judgeAnswer(p, 'not an answer', null, byKey)).toMatchObject({ answered: true, legal: false, key: null, problem: 'action/invalid' });
  });
});

describe('scoring a position', () => {
  it('values every move, the same on every run, with the best the highest', () => {
    const at = actionAt(11, 5)!;
    const a = scorePosition(at.request, { worlds: 2, seed: 3 })!;
    expect(a.options.map((o) => o.key)).toEqual(legalMoves(at.request).map((m) => m.key));
    expect(a.options.find((o) => o.key === a.best)!.value).toBe(Math.max(...a.options.map((o) => o.value)));
    expect(a.kept).toBeGreaterThan(0);
    expect(scorePosition(structuredClone(at.request), { worlds: 2, seed: 3 })).toEqual(a);
  });
});
