import { gauntlet } from './gauntlet.js';
import { roundRobin } from './round-robin.js';
import { swiss } from './swiss.js';
import type { FormatName, GameResult, Scheduler, ScheduledGame, TournamentConfig } from './types.js';

/** Every format's scheduler by name. */
export const SCHEDULERS: Record<FormatName, Scheduler> = {
  'round-robin': roundRobin,
  swiss,
  gauntlet,
};

/**
 * The next batch of the config's format: the games to play now (they may run concurrently), or
 * `done`. Call it again once the batch's results are recorded; `results` must be in the runner's
 * canonical order (the ratings fold them in that order).
 *
 * @example
 * let batch = nextGames(config, results);
 * while (batch !== 'done') { results.push(...(await play(batch))); batch = nextGames(config, results); }
 */
export const nextGames = (config: TournamentConfig, results: readonly GameResult[]): ScheduledGame[] | 'done' => SCHEDULERS[config.format](config, results);
