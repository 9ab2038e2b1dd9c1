import { describe, expect, it } from 'vitest';
import { MAX_SEED, Seed } from '../../src/protocol/index.js';
import { SimulationSpec } from '../../src/runner/simulate.js';
import { CreateGameBody } from '../../src/server/games/game-request.js';
import { parseTournamentConfig } from '../../src/tournament/config.js';

const message = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('one Seed for every door', () => {
  it('0 to 2^53 − 1, whole', () => {
    expect(MAX_SEED).toBe(2 ** 53 - 1);
    for (const ok of [0, 1, MAX_SEED]) expect(Seed.parse(ok)).toBe(ok);
    for (const bad of [-1, MAX_SEED + 1, 1e20, 0.5, Number.NaN, '1']) {
      const r = Seed.safeParse(bad);
      expect(r.success).toBe(false);
      // One issue, so an API error says it once.
      expect(r.error?.issues).toHaveLength(1);
    }
  });

  it('REST, simulate and tournaments refuse -1 with the same words', () => {
    const words = 'must be a whole number from 0 to 9007199254740991 (2^53 − 1), got -1';
    expect(message(CreateGameBody.safeParse({ agents: ['random', 'turtle'], seed: -1 }))).toBe(words);
    expect(message(SimulationSpec.safeParse({ games: 1, seed: -1 }))).toBe(words);
    // The last game's seed must be a seed too (MAX_SEED + 1 would round back without care).
    expect(message(SimulationSpec.safeParse({ games: 2, seed: MAX_SEED }))).toMatch(/^must be at most 9007199254740990 for 2 games/);
    expect(SimulationSpec.safeParse({ games: 2, seed: MAX_SEED - 1 }).success).toBe(true);
    const t = parseTournamentConfig({ format: 'round-robin', entrants: ['random', 'turtle'], seats: 2, seed: -1 });
    expect(t.ok).toBe(false);
    expect(!t.ok && t.message).toContain(words);
  });
});
