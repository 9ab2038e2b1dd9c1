import { tablesFor } from './designs.js';
import { fixedSchedule, nextOfFixed } from './static-schedule.js';
import type { Scheduler, ScheduledGame, TournamentConfig } from './types.js';

/**
 * Gauntlet tables: the challenger with every (seats − 1)-subset of the field (the other
 * entrants), or, when those explode, the field's cyclic design with tables of seats − 1 (every
 * field entrant faces the challenger equally often). The challenger is listed first; rotations
 * move it through every seat.
 */
export function gauntletTables(config: TournamentConfig): string[][] {
  const challenger = config.challenger ?? config.entrants[0]!;
  const field = config.entrants.filter((e) => e !== challenger);
  return tablesFor(field.length, config.seats - 1).map((t) => [challenger, ...t.map((i) => field[i]!)]);
}

/** The whole gauntlet schedule (after the `max_games` cap), in play order. */
export const gauntletSchedule = (config: TournamentConfig): ScheduledGame[] => fixedSchedule(config, gauntletTables(config));

/** The gauntlet format. */
export const gauntlet: Scheduler = (config, results) => nextOfFixed(config, gauntletSchedule(config), results);
