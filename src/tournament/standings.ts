import { bootstrapMeans, DEFAULT_RESAMPLES } from './bootstrap.js';
import { rateResults } from './ratings.js';
import type { GameResult, Standing, TournamentConfig } from './types.js';

export type StandingsOptions = {
  /** Bootstrap resamples per interval (default 1,000); lower it for a live table redrawn every game. */
  resamples?: number;
};

/**
 * Standings after `results` (in the runner's canonical order): openskill μ, σ and ordinal, games,
 * wins (placement 1, shared on ties), mean placement, and seeded 95 % bootstrap intervals of the
 * win rate and the mean placement (resampling the agent's own games). Sorted by ordinal, best
 * first; ties by entrant order. Entrants yet to play are listed with their prior rating.
 *
 * @example standings(config, results)[0].agent // the leader
 */
export function standings(config: Pick<TournamentConfig, 'entrants' | 'seed'>, results: readonly GameResult[], options: StandingsOptions = {}): Standing[] {
  const ratings = rateResults(config.entrants, results);
  const placements = new Map<string, number[]>(config.entrants.map((e) => [e, []]));
  for (const r of results)
    r.seats.forEach((agent, i) => {
      const list = placements.get(agent) ?? [];
      list.push(r.placements[i]!);
      placements.set(agent, list);
    });
  const order = [...placements.keys()];
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const table = order.map((agent): Standing => {
    const r = ratings.get(agent)!;
    const ps = placements.get(agent)!;
    const wins = ps.filter((p) => p === 1).length;
    // One paired bootstrap: the win rate and the mean placement of the same resampled games.
    const [win_rate, placement_ci] = bootstrapMeans([ps.map((p) => (p === 1 ? 1 : 0)), ps], config.seed, agent, resamples);
    return {
      agent,
      mu: r.mu,
      sigma: r.sigma,
      ordinal: r.ordinal,
      games: ps.length,
      wins,
      mean_placement: ps.length ? ps.reduce((s, p) => s + p, 0) / ps.length : null,
      win_rate: win_rate!,
      placement_ci: placement_ci!,
    };
  });
  const index = new Map(order.map((a, i) => [a, i]));
  return table.sort((a, b) => b.ordinal - a.ordinal || index.get(a.agent)! - index.get(b.agent)!);
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
