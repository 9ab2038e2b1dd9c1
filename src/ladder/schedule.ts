import type { DealRecord, EntrantRecord } from '../store/index.js';
import { prng } from '../tournament/seeds.js';
import { seatPlacements } from '../tournament/results.js';
import { nextLineup } from './matchmaker.js';
import type { LadderDeal, LadderEntrant, Match, MatchRequest } from './types.js';

/**
 * The seam between the ladder's runner and its matchmaker (matchmaker.ts): the stored ladder turned
 * into the matchmaker's plain data, and deal i's seeded generator.
 */
export type Matchmaker = (request: MatchRequest) => Match;

/** The matchmaker the runner uses unless told otherwise. */
export const matchmaker: Matchmaker = nextLineup;

/** Deal i's matchmaker generator: a function of the ladder's seed and the deal number alone. */
export const dealRandom = (seed: number, deal: number): (() => number) => prng(seed, 'ladder', deal);

/**
 * The stored deals as the matchmaker sees them: every deal in order (deal i at index i), with the
 * games of done deals only (a void deal seated its line-up but taught nothing).
 */
export function matchDeals(deals: readonly DealRecord[]): LadderDeal[] {
  return deals.map((d) => ({
    lineup: d.lineup,
    games: d.status === 'done' ? d.games.map((g) => ({ seats: g.seats, placements: seatPlacements(g.seats.length, g.placements ?? []) })) : [],
  }));
}

/** Entrants as the matchmaker sees them; those that may not play now (`benched`: at their caps) as not active. */
export function matchEntrants(entrants: readonly EntrantRecord[], benched: ReadonlySet<string>): LadderEntrant[] {
  return entrants.map((e) => ({ id: e.agent, joined_at: e.joined_at_deal, status: e.status === 'active' && benched.has(e.agent) ? 'retired' : e.status }));
}
