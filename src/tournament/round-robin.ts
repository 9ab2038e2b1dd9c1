import { tablesFor } from './designs.js';
import { fixedSchedule, nextOfFixed } from './static-schedule.js';
import type { Scheduler, ScheduledGame, TournamentConfig } from './types.js';

/**
 * Round-robin tables: every `seats`-subset of the entrants, or the cyclic balanced design when
 * there are more than MAX_COMBINATION_TABLES of them (every entrant plays equally often and every
 * pair meets). Each table is played over `seeds` seeds (in every rotation when duplicate).
 */
export function roundRobinTables(config: TournamentConfig): string[][] {
  return tablesFor(config.entrants.length, config.seats).map((t) => t.map((i) => config.entrants[i]!));
}

/** The whole round-robin schedule (after the `max_games` cap), in play order. */
export const roundRobinSchedule = (config: TournamentConfig): ScheduledGame[] => fixedSchedule(config, roundRobinTables(config));

/** The round-robin format. */
export const roundRobin: Scheduler = (config, results) => nextOfFixed(config, roundRobinSchedule(config), results);
