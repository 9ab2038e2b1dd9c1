import type { Interval } from './bootstrap.js';
import { fitGames, PRIOR_MU, PRIOR_SD, SCALE } from './fit-standings.js';
import { compileGames, newtonSteps } from './plackett-luce.js';
import { deriveSeed } from './seeds.js';
import type { GameResult } from './types.js';

/**
 * Per agent: 95 % intervals of the rating (μ), the win rate and the mean placement, and the
 * standard deviation of μ over the resamples (null without at least two).
 */
export type AgentIntervals = { rating: Interval | null; rating_sd: number | null; win_rate: Interval | null; placement: Interval | null };

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * A duplicate group's id from a result's key: the games of one deal of one table in every seat
 * rotation (`r0000-t0003-d0001-p2` → `r0000-t0003-d0001`). A key without a rotation is its own group.
 */
export const groupKey = (key: string): string => key.replace(/-p\d+$/, '');

/**
 * Newton steps per refit: the k-step bootstrap (Davidson & MacKinnon 1999; Andrews 2002). Started
 * from the full fit, two steps land near a resample's own maximum, at a third of the cost of
 * iterating on. How near depends on size (`npm run bench:kstep`, gap in μ per resample): on 1,680
 * games p95 7.6e-6, max 4.7e-5; on 120 games p95 2.1e-3, max 4.9e-2 — a resample of 30 groups starts
 * far from its maximum. The intervals' endpoints move far less (120 games: 2.7e-3 against a width
 * of ≥ 1.9), which is what the standings show.
 */
const REFIT_STEPS = 2;

/** mulberry32: a tiny seeded generator, the same on every platform. */
export function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The group bootstrap's draws: for each of `resamples` resamples, how many times each item (a
 * game) was drawn, when as many groups as there are are drawn with replacement and a group brings
 * all its items (`groups[i]`: item i's group). Seeded by `seed`, so figures resampled with the same
 * seed and groups move together: the ratings, and the WPA figures beside them (wpa-figures.ts).
 * `label` keeps unrelated figures' draws apart (cluster-bootstrap.ts). The array yielded is reused
 * from one resample to the next.
 */
export function* groupResamples(groups: readonly string[], seed: number, resamples: number, label = 'groups'): Generator<Float64Array> {
  const byGroup = new Map<string, number[]>();
  groups.forEach((id, i) => {
    const list = byGroup.get(id) ?? [];
    list.push(i);
    byGroup.set(id, list);
  });
  const members = [...byGroup.values()];
  if (members.length === 0) return;
  const next = mulberry32(deriveSeed(seed, 'bootstrap', label));
  const weights = new Float64Array(groups.length);
  for (let b = 0; b < resamples; b++) {
    weights.fill(0);
    for (let k = 0; k < members.length; k++) for (const i of members[Math.floor(next() * members.length)]!) weights[i]! += 1;
    yield weights;
  }
}

/**
 * Percentile-bootstrap intervals that resample whole duplicate groups, not games: the rotations of
 * one deal share their cards, so their results are not independent, and resampling them apart
 * would claim more evidence than the tournament holds. Each of `resamples` resamples draws as many
 * groups as there are, with replacement (seeded by the tournament seed), refits the ratings on them
 * (two Newton steps from the full fit: see REFIT_STEPS) and recomputes every agent's win rate
 * and mean placement on the same draw. An interval is the 2.5–97.5 % range of an agent's figure
 * over the resamples in which it played, widened to hold the point estimate. `results` must be in
 * canonical order (see `canonical`), `theta` the full fit's θ in `agents` order.
 */
export function groupBootstrap(
  agents: readonly string[],
  results: readonly GameResult[],
  theta: Float64Array,
  seed: number,
  resamples: number,
): AgentIntervals[] {
  const n = agents.length;
  const index = new Map(agents.map((a, i) => [a, i]));
  const samples = agents.map(() => ({ rating: [] as number[], win: [] as number[], placement: [] as number[] }));
  const compiled = compileGames(n, fitGames(agents, results));
  for (const weights of groupResamples(results.map((r) => groupKey(r.key)), seed, resamples)) {
    const refit = newtonSteps(compiled, weights, { priorSd: PRIOR_SD, start: theta, steps: REFIT_STEPS });
    const games = new Float64Array(n);
    const wins = new Float64Array(n);
    const places = new Float64Array(n);
    results.forEach((r, i) => {
      const w = weights[i]!;
      if (w === 0) return;
      r.seats.forEach((a, s) => {
        const j = index.get(a)!;
        games[j]! += w;
        if (r.placements[s] === 1) wins[j]! += w;
        places[j]! += w * r.placements[s]!;
      });
    });
    for (let j = 0; j < n; j++) {
      if (games[j] === 0) continue;
      samples[j]!.rating.push(PRIOR_MU + SCALE * refit[j]!);
      samples[j]!.win.push(wins[j]! / games[j]!);
      samples[j]!.placement.push(places[j]! / games[j]!);
    }
  }

  const point = agents.map((a) => {
    let games = 0;
    let wins = 0;
    let places = 0;
    for (const r of results)
      r.seats.forEach((x, s) => {
        if (x !== a) return;
        games++;
        if (r.placements[s] === 1) wins++;
        places += r.placements[s]!;
      });
    return games ? { games, win: wins / games, placement: places / games } : null;
  });
  return agents.map((_, j) => {
    const p = point[j];
    if (!p) return { rating: null, rating_sd: null, win_rate: null, placement: null };
    const s = samples[j]!;
    return {
      rating: interval(PRIOR_MU + SCALE * theta[j]!, s.rating),
      rating_sd: standardDeviation(s.rating),
      win_rate: interval(p.win, s.win),
      placement: interval(p.placement, s.placement),
    };
  });
}

function standardDeviation(xs: readonly number[]): number | null {
  if (xs.length < 2) return null;
  const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
  return round6(Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)));
}

export function interval(value: number, draws: number[]): Interval {
  if (draws.length === 0) return { value: round6(value), low: round6(value), high: round6(value) };
  const sorted = Float64Array.from(draws).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)))]!;
  return { value: round6(value), low: round6(Math.min(value, at(0.025))), high: round6(Math.max(value, at(0.975))) };
}
