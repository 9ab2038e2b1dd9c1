import { describe, expect, it } from 'vitest';
import { judgeAnswer } from '../../src/research/position-eval.js';
import { scoreAnswer } from '../../src/research/position-exact.js';
import { legalMoves, moveDecision } from '../../src/research/position-options.js';
import type { PositionRecord } from '../../src/research/position-record.js';
import { scorePosition } from '../../src/research/position-score.js';
import { actionAt } from './action-at.js';

/** A real position scored as the bank scores it (few worlds: this checks the bookkeeping, not the figures). */
function scored(seed: number, k: number, worlds = 3): PositionRecord {
  const at = actionAt(seed, k)!;
  const s = scorePosition(at.request, { worlds, seed: 1 })!;
  const r = at.request;
  return {
    position_version: 1, position_id: `${r.game_id}:0`, game_id: r.game_id, seed, rules_version: 'x', seq: 0, turn: r.turn, player_id: r.player_id, seat: 0, agent: 'balanced',
    window: 'action', request: r, options: s.options, best: s.best, played: null,
    scoring: { worlds: s.worlds, kept: s.kept, horizon: s.horizon, seed: 1, ...(s.kept < s.worlds ? { kept_worlds: s.kept_worlds } : {}) },
  };
}

type Plan = Record<string, unknown>;
const reframed = (d: unknown, plan: Plan): unknown => ({ ...(d as Plan), attack_plan: { ...((d as Plan)['attack_plan'] as Plan), ...plan } });

describe('scoring an exact answer in the bank’s worlds', () => {
  // The sixth first-attempt action window of seed 11's game: 21 moves, 18 of them attacks.
  const p = scored(11, 5);
  const moves = legalMoves(p.request);

  it('gives an answer identical to a pre-scored move exactly that move’s value, and no regret beyond the move’s', () => {
    for (const m of moves) {
      const value = p.options.find((o) => o.key === m.key)!.value;
      expect(scoreAnswer(p, moveDecision(p.request, m)), m.key).toBe(value);
      const r = judgeAnswer(p, moveDecision(p.request, m));
      expect(r.regret).toBe(r.move_regret);
    }
  });

  it('scores another framing of the same move on its own: some reframed attack is worth a different amount, and regret stays ≥ 0', () => {
    const attacks = moves.filter((m) => m.target_player_id !== null);
    expect(attacks.length).toBeGreaterThan(0);
    const differs = attacks.flatMap((m) => {
      const d = moveDecision(p.request, m);
      const value = p.options.find((o) => o.key === m.key)!.value;
      return [{ emotional_intent: 'fear' }, { emotional_intent: 'shame', manipulation_plan: 'bait' }].map((plan) => {
        const answer = reframed(d, plan);
        const r = judgeAnswer(p, answer);
        expect(r.key).toBe(m.key);
        expect(r.regret).toBeGreaterThanOrEqual(0);
        return scoreAnswer(p, answer) !== value;
      });
    });
    expect(differs.some(Boolean)).toBe(true);
  });

  it('is deterministic, and worlds dropped at mining are dropped again', () => {
    const answer = moveDecision(p.request, moves[0]!);
    expect(scoreAnswer(structuredClone(p), answer)).toBe(scoreAnswer(p, answer));
    // A bank that records kept worlds is read by them: keeping fewer changes the average.
    const fewer = { ...p, scoring: { ...p.scoring, kept: 1, kept_worlds: [0] } };
    const one = scorePosition(p.request, { worlds: 1, seed: 1 })!;
    expect(scoreAnswer(fewer, answer)).toBe(one.options.find((o) => o.key === moves[0]!.key)!.value);
  });
});
