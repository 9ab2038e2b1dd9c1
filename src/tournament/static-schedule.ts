import { capGames, dealGames, groupOf, unplayed } from './duplicate.js';
import { deriveSeed } from './seeds.js';
import { separated } from './separation.js';
import { standings } from './standings.js';
import type { GameResult, ScheduledGame, TournamentConfig } from './types.js';

/**
 * A schedule fixed in advance (round-robin, gauntlet): round s plays every table once with its
 * s-th seed (`deriveSeed(seed, format, s, table)`), in every rotation when duplicate; rounds run
 * s = 0..seeds−1, and `max_games` keeps a prefix of whole duplicate groups.
 */
export function fixedSchedule(config: TournamentConfig, tables: readonly (readonly string[])[]): ScheduledGame[] {
  const games: ScheduledGame[] = [];
  for (let s = 0; s < config.seeds; s++)
    tables.forEach((entrants, t) => games.push(...dealGames(config, { round: s, table: t, deal: 0 }, deriveSeed(config.seed, config.format, s, t), entrants, s + t)));
  return capGames(games, config.max_games);
}

/** True when every duplicate group that has a result has all of its results (no deal half-played). */
export function groupsComplete(schedule: readonly ScheduledGame[], results: readonly GameResult[]): boolean {
  const done = new Set(results.map((r) => r.key));
  const started = new Set(schedule.filter((g) => done.has(g.key)).map(groupOf));
  return schedule.every((g) => !started.has(groupOf(g)) || done.has(g.key));
}

/**
 * The next batch of a fixed schedule. Without a stop rule: everything not yet played, at once
 * (the runner's concurrency decides the pace). With one: a round at a time, and `done` as soon as
 * the standings are separated at a point where no duplicate group is half played.
 */
export function nextOfFixed(config: TournamentConfig, schedule: readonly ScheduledGame[], results: readonly GameResult[]): ScheduledGame[] | 'done' {
  const left = unplayed(schedule, results);
  if (left.length === 0) return 'done';
  if (!config.stop_when_separated) return left;
  if (groupsComplete(schedule, results) && separated(standings(config, results), config.stop_when_separated)) return 'done';
  const round = left[0]!.round;
  return left.filter((g) => g.round === round);
}
