import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { GameConfig, parseGameConfig } from '../../src/game/config.js';

const configs: unknown[] = [
  {},
  { seats: 3 },
  { seats: [{ display_name: 'Ada' }, { display_name: 'Bo', baseline: { fear: 0.1 } }] },
  { seats: 4, rules: { windows: 'compact', lives: 2 } },
  { seats: 4, rules: { rules_version: '1.0.0' } },
  { seats: 4, rules: { lives: -0 } },
  { seats: 4, rules: { lives: 99 } },
  { seats: 4, rules: { round_cap: undefined } },
  { seats: 'four' },
];

describe('parseGameConfig: GameConfig.safeParse with recent configs remembered', () => {
  it('given the same configs twice, then every answer equals a fresh GameConfig.safeParse, and each caller gets its own copy', () => {
    for (let pass = 0; pass < 2; pass++) {
      for (const c of configs) {
        const fresh = GameConfig.safeParse(c);
        const got = parseGameConfig(c);
        expect(got.success).toBe(fresh.success);
        if (got.success && fresh.success) expect(isDeepStrictEqual(got.data, fresh.data)).toBe(true);
      }
    }
    const a = parseGameConfig({ seats: 3 });
    const b = parseGameConfig({ seats: 3 });
    if (!a.success || !b.success) throw new Error('parse failed');
    expect(a.data).not.toBe(b.data);
    expect(a.data.rules).not.toBe(b.data.rules);
  });

  it('given a key the JSON text does not show (non-enumerable), then it is parsed, not answered from memory', () => {
    parseGameConfig({ seats: 4 });
    const hidden = { seats: 4 };
    Object.defineProperty(hidden, 'rules', { value: { lives: 2 }, enumerable: false });
    const got = parseGameConfig(hidden);
    if (!got.success) throw new Error('parse failed');
    expect(got.data.rules.lives).toBe(2);
  });
});
