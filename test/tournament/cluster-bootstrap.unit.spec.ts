import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../src/protocol/index.js';
import { bootstrapMeans, type Interval } from '../../src/tournament/bootstrap.js';
import { ChoiceShiftTally, FEW_SHIFT_CLUSTERS } from '../../src/tournament/choice-shift.js';
import { clusterBootstrapMeans, clusterCount, clusterDraws } from '../../src/tournament/cluster-bootstrap.js';
import { groupKey, mulberry32 } from '../../src/tournament/group-bootstrap.js';

const width = (i: Interval | null) => i!.high - i!.low;

/**
 * `games` games of `per` samples each: a strong game effect (±1, seeded) and small noise within a
 * game, so a game's samples move together: the within-game correlation is ~0.96.
 */
function correlated(games: number, per: number, seed = 1) {
  const next = mulberry32(seed);
  const values: number[] = [];
  const clusters: string[] = [];
  for (let g = 0; g < games; g++) {
    const effect = next() < 0.5 ? -1 : 1;
    for (let k = 0; k < per; k++) {
      values.push(effect + (next() - 0.5) * 0.4);
      clusters.push(`g${g}`);
    }
  }
  return { values, clusters };
}

describe('cluster bootstrap', () => {
  it('given samples strongly correlated within games, then the clustered interval is wider than the naive one', () => {
    const { values, clusters } = correlated(30, 8);
    const [clustered] = clusterBootstrapMeans([values], clusters, 0, 'x');
    const [naive] = bootstrapMeans([values], 0, 'x');
    expect(clustered!.value).toBe(naive!.value);
    // 30 games of 8 near-identical samples hold about 30 samples' evidence, not 240: √8 ≈ 2.8× wider.
    expect(width(clustered!) / width(naive!)).toBeGreaterThan(2);
    expect(clusterCount(clusters)).toBe(30);
  });

  it('given one sample per cluster, then it is the ordinary bootstrap (same width within resampling noise)', () => {
    const { values } = correlated(200, 1);
    const [clustered] = clusterBootstrapMeans([values], values.map((_, i) => `g${i}`), 0, 'x');
    const [naive] = bootstrapMeans([values], 0, 'x');
    expect(width(clustered!) / width(naive!)).toBeGreaterThan(0.85);
    expect(width(clustered!) / width(naive!)).toBeLessThan(1.15);
  });

  it('is seeded: the same samples, seed and label give the same interval; another label other draws', () => {
    const { values, clusters } = correlated(20, 3);
    expect(clusterBootstrapMeans([values], clusters, 0, 'a')).toEqual(clusterBootstrapMeans([values], clusters, 0, 'a'));
    expect(clusterBootstrapMeans([values], clusters, 0, 'a')).not.toEqual(clusterBootstrapMeans([values], clusters, 0, 'b'));
    expect(clusterBootstrapMeans([[]], [], 0, 'a')).toEqual([null]);
    expect(() => clusterBootstrapMeans([[1]], [], 0, 'a')).toThrow(/one value per sample/);
  });

  it('clusterDraws leaves out resamples that cannot measure the statistic', () => {
    const draws = clusterDraws(['a', 'b'], 0, 'x', 100, (w) => (w[0] === 0 ? null : w[0]!));
    expect(draws.length).toBeGreaterThan(50);
    expect(draws.length).toBeLessThan(100);
    expect(draws.every((x) => x >= 1)).toBe(true);
  });
});

// --- emotion → choice, clustered by game ---

const ev = (type: string, turn: number, payload: Record<string, unknown>) => ({ type, turn, payload }) as unknown as GameEvent;
const fright = (turn: number) => ev('action_resolved', turn, { actor_player_id: 'plr_1', attack_plan: { target_player_id: 'plr_2', manipulation_plan: 'bait', emotional_intent: 'fear' }, manipulation_outcome: 'success', slipped: false });
const answer = (turn: number, kind: 'guard' | 'attack') =>
  kind === 'guard'
    ? ev('action_resolved', turn, { actor_player_id: 'plr_2', card: { type: 'guard' }, attack_plan: null, manipulation_outcome: null, slipped: false })
    : ev('action_resolved', turn, { actor_player_id: 'plr_2', attack_plan: { target_player_id: 'plr_1', manipulation_plan: 'bait', emotional_intent: 'anger' }, manipulation_outcome: 'failed', slipped: false });

/** alpha frightens bravo in rounds 1–6; bravo answers every round the same way (its game's mood): 6 samples that move together. */
const moodGame = (kind: 'guard' | 'attack'): GameEvent[] => [
  ev('game_started', 0, { players: [{ player_id: 'plr_1', seat: 0 }, { player_id: 'plr_2', seat: 1 }] }),
  ...[1, 2, 3, 4, 5, 6, 7].flatMap((turn) => [...(turn < 7 ? [fright(turn)] : []), answer(turn, kind)]),
];

describe('emotion → choice shift intervals', () => {
  const kinds = Array.from({ length: 24 }, (_, i) => (mulberry32(i + 7)() < 0.5 ? 'guard' : 'attack'));
  const tally = new ChoiceShiftTally();
  kinds.forEach((k, i) => tally.add(moodGame(k), ['alpha', 'bravo'], `r0000-t${i}-d0000`));
  const fear = tally.figures().by_intent[0]!;

  it('given samples that cluster within games, then the interval resamples games and is wider than a per-sample bootstrap', () => {
    // The same samples bootstrapped as if independent (what the report did before).
    const baseline = fear.attack_share_baseline!;
    const diffs = kinds.flatMap((k) => Array<number>(6).fill((k === 'attack' ? 1 : 0) - baseline));
    const [naive] = bootstrapMeans([diffs], 0, 'choice-shift|*|fear');
    expect(fear.attack_shift!.value).toBeCloseTo(naive!.value, 3);
    expect(width(fear.attack_shift) / width(naive!)).toBeGreaterThan(1.8);
    expect(fear).toMatchObject({ samples: 24 * 6, clusters: 24, status: 'ok', few_samples: false });
  });

  it('given samples from few games, then the cell is flagged few_samples; from fewer than 3, its interval is withheld', () => {
    const few = new ChoiceShiftTally();
    for (let i = 0; i < FEW_SHIFT_CLUSTERS - 1; i++) few.add(moodGame(i % 2 ? 'guard' : 'attack'), ['alpha', 'bravo'], `r0000-t${i}-d0000`);
    const row = few.figures().by_target.find((r) => r.target === 'bravo' && r.emotional_intent === 'fear')!;
    expect(row).toMatchObject({ samples: 54, clusters: 9, status: 'ok', few_samples: true });
    expect(row.attack_shift).not.toBeNull();
    // 12 samples, but all from two deals (every rotation of a deal is one group).
    const two = new ChoiceShiftTally();
    for (const p of [0, 1]) for (const d of [0, 1]) two.add(moodGame(d ? 'guard' : 'attack'), ['alpha', 'bravo'], groupKey(`r0000-t0000-d000${d}-p${p}`));
    expect(two.figures().by_intent[0]).toMatchObject({ samples: 24, clusters: 2, status: 'not_enough_samples', few_samples: true, attack_shift: null });
  });
});
