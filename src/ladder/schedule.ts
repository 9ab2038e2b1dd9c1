import type { DealRecord, EntrantRecord } from '../store/index.js';
import { prng, shuffled } from '../tournament/seeds.js';
import { seatPlacements } from '../tournament/results.js';

/**
 * The seam between the ladder's runner and its matchmaker: plain data in (entrants, every deal so
 * far with its games, seats, a seeded generator), one line-up out. The shapes are those of the
 * matchmaker (src/ladder/matchmaker.ts, branch ladder-sim); until it lands, `fewestGamesFirst`
 * stands in for it.
 */
export type MatchEntrant = { id: string; joined_at: number; status: 'active' | 'retired' | 'suspended' };
export type MatchDeal = { lineup: readonly string[]; games: readonly { seats: readonly string[]; placements: readonly number[] }[] };
export type MatchInput = { entrants: readonly MatchEntrant[]; deals: readonly MatchDeal[]; seats: number; next: () => number };
export type MatchOutput = { ok: true; lineup: string[]; reason: string } | { ok: false; error: string; message: string };
export type Matchmaker = (input: MatchInput) => MatchOutput;

/**
 * The stand-in rule: the active entrants with the fewest games so far (ties: seated longest ago,
 * then a seeded shuffle), so a newcomer plays every deal until it has caught up and nobody waits
 * long. It knows nothing of the ratings: the matchmaker places games where they teach the most.
 */
export const fewestGamesFirst: Matchmaker = ({ entrants, deals, seats, next }) => {
  const games = new Map<string, number>();
  const last = new Map<string, number>();
  deals.forEach((d, i) => {
    for (const id of d.lineup) last.set(id, i);
    for (const g of d.games) for (const id of g.seats) games.set(id, (games.get(id) ?? 0) + 1);
  });
  const active = shuffled(entrants.filter((e) => e.status === 'active').map((e) => e.id), next);
  if (active.length < seats) return { ok: false, error: 'ladder/too_few_entrants', message: `${active.length} active entrants for ${seats} seats` };
  const order = [...active].sort((a, b) => (games.get(a) ?? 0) - (games.get(b) ?? 0) || (last.get(a) ?? -1) - (last.get(b) ?? -1));
  return { ok: true, lineup: order.slice(0, seats), reason: 'fewest_games' };
};

/** The matchmaker the runner uses. */
export const matchmaker: Matchmaker = fewestGamesFirst;

/** Deal i's matchmaker generator: a function of the ladder's seed and the deal number alone. */
export const dealRandom = (seed: number, deal: number): (() => number) => prng(seed, 'ladder', deal);

/** The entrant in each seat of rotation p of a line-up (rotation p seats lineup[(i + p) % k] in seat i). */
export const rotationSeats = (lineup: readonly string[], p: number): string[] => lineup.map((_, i) => lineup[(i + p) % lineup.length]!);

/**
 * The stored deals as the matchmaker sees them: every deal in order (deal i at index i), with the
 * games of done deals only (a void deal seated its line-up but taught nothing).
 */
export function matchDeals(deals: readonly DealRecord[]): MatchDeal[] {
  return deals.map((d) => ({
    lineup: d.lineup,
    games: d.status === 'done' ? d.games.map((g) => ({ seats: g.seats, placements: seatPlacements(g.seats.length, g.placements ?? []) })) : [],
  }));
}

/** Entrants as the matchmaker sees them; those that may not play now (`benched`: capped, not admitted) as not active. */
export function matchEntrants(entrants: readonly EntrantRecord[], benched: ReadonlySet<string>): MatchEntrant[] {
  return entrants.map((e) => ({ id: e.agent, joined_at: e.joined_at_deal, status: e.status === 'active' && benched.has(e.agent) ? 'retired' : e.status }));
}
