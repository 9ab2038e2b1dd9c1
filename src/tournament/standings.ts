import { DEFAULT_RESAMPLES } from './bootstrap.js';
import { canonical, fitAll, ratingOf, resultText } from './fit-standings.js';
import { groupBootstrap } from './group-bootstrap.js';
import { hash53 } from './seeds.js';
import type { GameResult, Standing, TournamentConfig } from './types.js';

export type StandingsOptions = {
  /** Bootstrap resamples per interval (default 1,000); LIVE_RESAMPLES for a table redrawn as games end. */
  resamples?: number;
};

/**
 * Resamples for a live table (a running tournament's, redrawn as games end): the intervals move
 * by about ±0.02 of their width against 1,000, and a 1,680-game table costs a fifth of the time.
 */
export const LIVE_RESAMPLES = 200;

/**
 * Recent tables by content: the same entrants, seed, resamples and results (in any order) give the
 * same table, so a GET repeated while nothing changed, or a stop rule asking again, costs a hash.
 */
const MEMO_SIZE = 32;
const memo = new Map<string, Standing[]>();

function memoKey(config: Pick<TournamentConfig, 'entrants' | 'seed'>, sorted: readonly GameResult[], resamples: number): string {
  let h1 = hash53(`${config.seed}\u0000${resamples}\u0000${config.entrants.join('\u0001')}`, 1);
  let h2 = hash53(`${config.seed}\u0000${resamples}\u0000${config.entrants.join('\u0001')}`, 2);
  for (const r of sorted) {
    const text = resultText(r);
    h1 = hash53(`${h1}\u0000${text}`, 1);
    h2 = hash53(`${h2}\u0000${text}`, 2);
  }
  return `${sorted.length}:${h1}:${h2}`;
}

/**
 * Standings after `results`: each agent's rating from one Plackett–Luce fit over all of them
 * (fit-standings.ts: μ, σ on openskill's scale), games, wins (placement 1, shared on ties), mean
 * placement, and seeded 95 % bootstrap intervals of the rating, the win rate and the mean placement
 * that resample whole duplicate groups (group-bootstrap.ts). Nothing depends on the order of
 * `results`: permuting them gives the same table, bit for bit. Sorted by μ, best first; equal μ in
 * entrant order. Entrants yet to play are listed with the prior (μ 25, σ 25/3) and no intervals.
 *
 * @example standings(config, results)[0].agent // the leader
 */
export function standings(config: Pick<TournamentConfig, 'entrants' | 'seed'>, results: readonly GameResult[], options: StandingsOptions = {}): Standing[] {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const key = memoKey(config, canonical(results), resamples);
  const hit = memo.get(key);
  if (hit) return structuredClone(hit);
  const table = computeStandings(config, results, resamples);
  if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value!);
  memo.set(key, structuredClone(table));
  return table;
}

/** The table computed afresh, past the memo (`standings` is this, remembered); for tests and benchmarks. */
export function computeStandings(config: Pick<TournamentConfig, 'entrants' | 'seed'>, results: readonly GameResult[], resamples: number): Standing[] {
  const { agents, sorted, theta, sd } = fitAll(config.entrants, results);
  const intervals = groupBootstrap(agents, sorted, theta, config.seed, resamples);
  const table = agents.map((agent, i): Standing => {
    const placements: number[] = [];
    for (const r of sorted) r.seats.forEach((a, s) => a === agent && placements.push(r.placements[s]!));
    // σ: the spread of μ over the bootstrap, the same evidence the interval reads. The curvature's σ
    // (the fallback, with no resamples) also holds the field's common level, which only the prior
    // pins, so it comes out near-equal and too wide for everyone (3.5 against a ±1.6 interval).
    const { mu, sigma: curvature } = ratingOf(theta[i]!, sd[i]!);
    const sigma = intervals[i]!.rating_sd ?? curvature;
    return {
      agent,
      mu,
      sigma,
      rating_ci: intervals[i]!.rating,
      games: placements.length,
      wins: placements.filter((p) => p === 1).length,
      mean_placement: placements.length ? placements.reduce((s, p) => s + p, 0) / placements.length : null,
      win_rate: intervals[i]!.win_rate,
      placement_ci: intervals[i]!.placement,
    };
  });
  const index = new Map(agents.map((a, i) => [a, i]));
  return table.sort((a, b) => b.mu - a.mu || index.get(a.agent)! - index.get(b.agent)!);
}

/** One ordered pair of the head-to-head matrix: how often `a` placed above, level with or below `b`. */
export type HeadToHead = { a: string; b: string; games: number; above: number; level: number; below: number };

/**
 * The head-to-head matrix: for every ordered pair of entrants that shared a table, the games
 * they played together and how often the first placed strictly above the second (`above`), tied
 * (`level`) or below. Pairs in entrant order; (b, a) mirrors (a, b).
 */
export function headToHead(entrants: readonly string[], results: readonly GameResult[]): HeadToHead[] {
  const cells = new Map<string, HeadToHead>();
  const cell = (a: string, b: string) => {
    const key = `${a}\u0000${b}`;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = { a, b, games: 0, above: 0, level: 0, below: 0 }));
    return c;
  };
  for (const r of results)
    for (let i = 0; i < r.seats.length; i++)
      for (let j = 0; j < r.seats.length; j++) {
        if (i === j) continue;
        const c = cell(r.seats[i]!, r.seats[j]!);
        c.games++;
        const [pi, pj] = [r.placements[i]!, r.placements[j]!];
        if (pi < pj) c.above++;
        else if (pi === pj) c.level++;
        else c.below++;
      }
  const index = new Map(entrants.map((e, i) => [e, i]));
  const pos = (x: string) => index.get(x) ?? Number.MAX_SAFE_INTEGER;
  return [...cells.values()].sort((x, y) => pos(x.a) - pos(y.a) || pos(x.b) - pos(y.b) || (x.a + x.b < y.a + y.b ? -1 : 1));
}
