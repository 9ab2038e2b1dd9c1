import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SimulationSpec, playSeated } from '../../src/runner/simulate.js';
import { stateHash } from '../../src/view/index.js';
import { foldAlong, perspectives } from '../support/fold-check.js';

const BUILT_INS = ['random', 'balanced', 'aggressor', 'turtle', 'manipulator', 'trickster'] as const;

const game = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  lineup: fc.array(fc.constantFrom(...BUILT_INS), { minLength: 4, maxLength: 6 }),
  compact: fc.boolean(),
  /** Where each viewer's snapshot is, as a fraction of the game. */
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});

/**
 * The shared view reducer against the server's projection on games the built-in agents play (the
 * random legal drivers never play like them: face-down traps, reactions, rituals and eliminations
 * in the mixes real line-ups produce). For every viewer of each game, from a snapshot at a random
 * seq, folding the viewer's projected events reproduces viewState and its state_hash.
 */
describe('foldView on games played by the built-in agents', () => {
  it('given a random line-up of built-ins on 4–6 seats, for every viewer, then every folded view after a random snapshot equals viewState and hashes the same', async () => {
    let compared = 0;
    let games = 0;
    const finals: { folded: Awaited<ReturnType<typeof foldAlong>>['folded']; expected: string }[] = [];
    await fc.assert(
      fc.asyncProperty(game, async (g) => {
        const spec = SimulationSpec.parse({ games: 1, seed: g.seed, seats: g.lineup.length, agents: g.lineup, rules: { windows: g.compact ? 'compact' : 'full' } });
        const { run, agents } = await playSeated(spec, 0);
        expect(agents).toEqual(g.lineup);
        const config = { seats: spec.seats, rules: spec.rules };
        games++;
        perspectives(spec.seats).forEach((p, i) => {
          // Each viewer's snapshot at its own point of the game, spread from `at`.
          const r = foldAlong(config, g.seed, run.events, p, (g.at + i * 0.137) % 1, 25);
          compared += r.compared;
          finals.push({ folded: r.folded, expected: r.expected });
        });
      }),
      { numRuns: 30 },
    );
    for (const f of finals.slice(0, 30)) expect(await stateHash(f.folded)).toBe(f.expected);
    expect(games).toBeGreaterThanOrEqual(30);
    expect(compared).toBeGreaterThan(20_000);
  });
});
