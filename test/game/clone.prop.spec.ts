import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clonePlain } from '../../src/game/clone.js';
import { SimulationSpec, playSeated } from '../../src/runner/simulate.js';
import { initialState } from '../../src/game/index.js';
import { applyEvent } from '../../src/game/evolve.js';

/** clonePlain stands in for structuredClone on engine states and events: it must copy them the same. */
describe('clonePlain', () => {
  it('given any JSON value, then the copy serialises identically (same keys in the same order) and shares no object', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const c = clonePlain(v);
        expect(JSON.stringify(c)).toBe(JSON.stringify(structuredClone(v)));
        if (typeof v === 'object' && v !== null) expect(c).not.toBe(v);
      }),
    );
  });

  it('given an engine state along a played game, then the copy equals structuredClone’s and changing it leaves the original alone', async () => {
    const spec = SimulationSpec.parse({ games: 1, seed: 11, seats: 4, agents: ['balanced', 'trickster', 'manipulator', 'random'] });
    const { run } = await playSeated(spec, 0);
    const state = initialState({ seats: spec.seats, rules: spec.rules }, 11);
    for (const e of run.events) {
      applyEvent(state, clonePlain(e));
      if (e.seq % 97 !== 0) continue;
      const c = clonePlain(state);
      expect(c).toStrictEqual(structuredClone(state));
      const before = JSON.stringify(state);
      c.players[0]!.lives = -99;
      expect(JSON.stringify(state)).toBe(before);
    }
  });

  it('given an own "__proto__" key (as JSON.parse makes one), then it stays a key', () => {
    const v = JSON.parse('{"__proto__":{"x":1},"y":[{"__proto__":2}]}') as unknown;
    const c = clonePlain(v);
    expect(JSON.stringify(c)).toBe('{"__proto__":{"x":1},"y":[{"__proto__":2}]}');
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
  });

  it('given something that is not plain data, then it throws instead of copying it wrong', () => {
    expect(() => clonePlain({ at: new Date(0) })).toThrow(/not plain data/);
    expect(() => clonePlain([new Map()])).toThrow(/not plain data/);
  });
});
