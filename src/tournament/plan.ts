import { parseTournamentConfig } from './config.js';
import { nextGames } from './formats.js';
import type { GameResult, TournamentConfig } from './types.js';

/** What a tournament will play: its games, and per entrant how many it sits in. */
export type TournamentPlan = {
  games: number;
  /** Games each entrant sits in, in entrant order. */
  seats: { agent: string; games: number }[];
  /** The stop rule may end it sooner: `games` is then an upper bound. */
  upper_bound: boolean;
};

/** More batches than any real schedule has: a format that never says `done` is a bug, not a plan. */
const MAX_BATCHES = 100_000;

/**
 * The games a tournament will play, without playing any: the format is driven to `done` with every
 * game a draw. Round-robin and gauntlet schedules do not depend on results, and swiss plays the
 * same number of tables whatever the results; only the stop rule (which may end early) and a
 * budget make the real count smaller.
 *
 * @example planTournament(config).games // 120 for six entrants, four seats, two seeds
 */
export function planTournament(config: TournamentConfig): TournamentPlan {
  const count = new Map(config.entrants.map((e) => [e, 0]));
  const results: GameResult[] = [];
  const planConfig = { ...config, stop_when_separated: null };
  for (let batch = 0; batch < MAX_BATCHES; batch++) {
    const next = nextGames(planConfig, results);
    if (next === 'done') return { games: results.length, seats: [...count].map(([agent, games]) => ({ agent, games })), upper_bound: config.stop_when_separated !== null };
    for (const g of next) {
      for (const a of g.seats) count.set(a, (count.get(a) ?? 0) + 1);
      results.push({ key: g.key, round: g.round, seats: g.seats, placements: g.seats.map(() => 1) });
    }
  }
  throw new Error(`the ${config.format} format never finished planning`);
}

/**
 * The games a stored config plans, or null when it no longer parses. Its entrants are not
 * resolved (a listing must not load skills or providers to count games).
 *
 * @example plannedGames(record.config) // 8
 */
export function plannedGames(config: Record<string, unknown>): number | null {
  const parsed = parseTournamentConfig({ ...config, allow_unpriced: true }, () => ({ ok: true }));
  return parsed.ok ? planTournament(parsed.config).games : null;
}
