import { tablesFor } from '../tournament/designs.js';
import { seatAgents } from './lineup.js';

/**
 * How a simulation seats its line-up.
 * - `rotate`: the line-up fits one table (or is repeated to fill it); game g seats agent
 *   (i + g) mod n in seat i and is played with seed + g.
 * - `every-lineup`: more agents than seats. Each deal (seed + d) is played at every table of
 *   `seats` agents (every combination, or the cyclic balanced design past 210 of them, as the
 *   round-robin's tables) in each of its `seats` rotations — the round-robin with duplicate seeds —
 *   so every agent meets every other and deal and seat luck cancel.
 */
export type SimSchedule =
  | { mode: 'rotate' }
  | {
      mode: 'every-lineup';
      /** The tables as indices into the line-up, in play order. */
      tables: number[][];
      /** tables × seats: the games of one deal. */
      gamesPerDeal: number;
    };

/** The schedule of a line-up at tables of `seats`. */
export function simSchedule(lineupLength: number, seats: number): SimSchedule {
  if (lineupLength <= seats) return { mode: 'rotate' };
  const tables = tablesFor(lineupLength, seats);
  return { mode: 'every-lineup', tables, gamesPerDeal: tables.length * seats };
}

/** Deals (distinct seeds) that `games` games take: whole deals, so every line-up sees every seed in every rotation. */
export const dealsFor = (schedule: SimSchedule, games: number): number => (schedule.mode === 'rotate' ? games : Math.ceil(games / schedule.gamesPerDeal));

/**
 * Game g of a schedule: its agents by seat and its seed (`seed` is the simulation's first).
 *
 * @example gameAt(simSchedule(5, 4), ['a', 'b', 'c', 'd', 'e'], 4, 1, 4) // { agents: ['a', 'b', 'c', 'e'], seed: 1, deal: 0 }
 */
export function gameAt(schedule: SimSchedule, lineup: readonly string[], seats: number, seed: number, g: number): { agents: string[]; seed: number; deal: number } {
  if (schedule.mode === 'rotate') return { agents: seatAgents(lineup, seats, g), seed: seed + g, deal: g };
  const deal = Math.floor(g / schedule.gamesPerDeal);
  const within = g % schedule.gamesPerDeal;
  const table = schedule.tables[Math.floor(within / seats)]!;
  const rotation = within % seats;
  return { agents: table.map((_, i) => lineup[table[(i + rotation) % seats]!]!), seed: seed + deal, deal };
}
