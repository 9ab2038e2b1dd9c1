import { describe, expect, it } from 'vitest';
import { simulate } from '../../../src/runner/simulate.js';

/**
 * The shipped example agents at a real table, as subprocesses: every answer legal, mostly not
 * passing, attacks carrying AttackPlans, and the whole simulation deterministic.
 */
describe('shipped skills in simulation', () => {
  it('given the Python example against built-ins, then its play is legal, active and deterministic', async () => {
    const opts = { games: 2, seed: 3, agents: ['skill:skills/python-example', 'balanced', 'balanced', 'balanced'], rules: { round_cap: 6 } };
    const a = await simulate(opts);
    const py = a.byAgent['skill:skills/python-example']!;
    expect(py.games).toBe(2);
    expect(py.rejections).toBe(0);
    expect(py.forcedPasses).toBe(0);
    expect(py.activeRoundRate).toBeGreaterThan(0.6);
    expect(py.attacks).toBeGreaterThan(0);
    expect(py.statements).toBeGreaterThan(0);
    expect((await simulate(opts)).logHash).toBe(a.logHash);
  });

  it.each(['node-example', 'shell-example', 'plan-example'])('given %s against built-ins, then none of its answers is rejected', async (name) => {
    const r = await simulate({ games: 1, seed: 4, agents: [`skill:skills/${name}`, 'random', 'balanced'], rules: { round_cap: 3 } });
    expect(r.byAgent[`skill:skills/${name}`]).toMatchObject({ games: 1, rejections: 0, forcedPasses: 0 });
  });
});
