import { describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/eval/features.js';
import { fitConditionalLogit, type Group } from '../../src/eval/fit.js';
import { MODEL, endedChances, softmax } from '../../src/eval/model.js';
import { calibration } from '../../src/eval/calibration.js';
import { rand } from '../support/drivers.js';

describe('win-probability model', () => {
  it('given the shipped artifact, then each form has one finite weight per feature, in the features’ order', () => {
    for (const form of ['public', 'omniscient', 'baseline'] as const) {
      expect(MODEL.models[form].features).toEqual(FEATURES[form]);
      expect(MODEL.models[form].weights).toHaveLength(FEATURES[form].length);
      for (const w of MODEL.models[form].weights) expect(Number.isFinite(w)).toBe(true);
    }
    expect(MODEL.version).toMatch(/^winprob-\d+-\d+$/);
  });

  it('given positions drawn from a known conditional logit, then the fit finds its weights, the same on every run', () => {
    const truth = [0.8, -0.5];
    const r = rand(7);
    const groups: Group[] = [];
    for (let g = 0; g < 4000; g++) {
      const n = 3 + r.int(4);
      const rows = Array.from({ length: n }, () => [r.int(4), r.int(10) / 3]);
      const p = softmax(rows.map((x) => x[0]! * truth[0]! + x[1]! * truth[1]!));
      let u = r.next();
      let winner = n - 1;
      for (let i = 0; i < n; i++) if ((u -= p[i]!) < 0) { winner = i; break; }
      groups.push({ rows, won: rows.map((_, i) => (i === winner ? 1 : 0)) });
    }
    const w = fitConditionalLogit(groups, 2, { ridge: 1, iterations: 15 });
    expect(w[0]).toBeCloseTo(truth[0]!, 1);
    expect(w[1]).toBeCloseTo(truth[1]!, 1);
    expect(fitConditionalLogit(groups, 2, { ridge: 1, iterations: 15 })).toEqual(w);
  });

  it('given huge scores, then softmax neither overflows nor loses the sum', () => {
    const p = softmax([1000, 999, -1000]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[2]).toBe(0);
  });

  it('given a tie at the top of an ended game, then the tied winners share the chance', () => {
    const placements = [
      { player_id: 'plr_1', placement: 1 },
      { player_id: 'plr_2', placement: 1 },
      { player_id: 'plr_3', placement: 3 },
    ] as unknown as Parameters<typeof endedChances>[1];
    expect(endedChances(['plr_1', 'plr_2', 'plr_3'], placements)).toEqual({ plr_1: 0.5, plr_2: 0.5, plr_3: 0 });
  });

  it('given stated chances, then ECE, Brier and log loss are what their definitions give', () => {
    const c = calibration([[{ p: 0.7, won: 1 }, { p: 0.3, won: 0 }], [{ p: 0.7, won: 0 }, { p: 0.3, won: 1 }]]);
    expect(c.brier).toBeCloseTo((0.09 + 0.09 + 0.49 + 0.49) / 4, 4);
    expect(c.ece).toBeCloseTo(0.2, 4); // the 0.7 bin wins 50 %, the 0.3 bin 50 %
    expect(c.log_loss).toBeCloseTo((-Math.log(0.7) - Math.log(0.3)) / 2, 4);
  });
});
