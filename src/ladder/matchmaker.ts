/**
 * The ladder's matchmaker: which entrants play the next deal. Pure and deterministic — the same
 * request (entrants, deals, seats, options) and the same generator give the same line-up.
 *
 * The rule, in priority order (docs/ladder.md, "How the next game is chosen"):
 *   1. **Idle first.** An active entrant that has sat out `max_idle_deals` deals in a row is
 *      seated first (the longest idle first), so every active entrant keeps being scheduled: none
 *      sits out more than max_idle_deals + ⌈active / seats⌉ deals in a row.
 *   2. **Placement.** A newcomer (fewer than `placement_games` games) is seated next, fewest games
 *      first, so a new entrant's rating settles quickly; the seats left go to the entrants whose
 *      deal with it scores highest among those rated nearest it.
 *   3. **Information.** Otherwise the line-up is the one, among the groups of entrants adjacent in
 *      the current ranking (every `seats` of `seats + 2` neighbours), whose deal would most reduce
 *      the ranking's uncertainty (information.ts: the Fisher information of the deal, through the
 *      fit's posterior covariance, on every pair whose order is in doubt).
 * Ties (equal games, equal idleness, a fresh ladder) are broken by one seeded shuffle of the
 * active entrants, and the line-up's seat order is shuffled too: the deal is played in every
 * rotation (`dealRotations`), so the seat order only names the rotations.
 *
 * @example
 *   const m = nextLineup({ entrants, deals, seats: 4, next: prng(seed, 'ladder', deals.length) });
 *   if (m.ok) play(dealRotations(m.lineup));
 */
import { rotation } from '../tournament/duplicate.js';
import { PRIOR_SD } from '../tournament/fit-standings.js';
import { compileGames, covarianceAt, fitCompiled, type FitGame } from '../tournament/plackett-luce.js';
import { shuffled } from '../tournament/seeds.js';
import { dealScore, pairWeights, type RankingState } from './information.js';
import { MatchmakerOptions, type LadderDeal, type Match, type MatchReason, type MatchRequest } from './types.js';

/** Extra neighbours a candidate group may skip over: groups are `seats` of `seats + SPAN` adjacent entrants. */
const SPAN = 2;

/** The games of a deal: its line-up in every seat rotation (tournament/duplicate.ts's rule). */
export const dealRotations = (lineup: readonly string[]): string[][] => lineup.map((_, p) => rotation(lineup, p));

/** The default `max_idle_deals`: four "rounds" of the active field. */
export const defaultMaxIdle = (active: number, seats: number): number => 4 * Math.ceil(active / seats);

type Tally = { games: Int32Array; lastDeal: Int32Array };

/** Games played and the last deal seated, per entrant index; an error for a deal naming an unknown entrant. */
function tally(index: ReadonlyMap<string, number>, deals: readonly LadderDeal[], seats: number): Tally | string {
  const games = new Int32Array(index.size);
  const lastDeal = new Int32Array(index.size).fill(-1);
  for (let d = 0; d < deals.length; d++) {
    const deal = deals[d]!;
    if (deal.lineup.length !== seats || new Set(deal.lineup).size !== seats) return `deal ${d}'s line-up is not ${seats} distinct entrants`;
    for (const id of deal.lineup) {
      const i = index.get(id);
      if (i === undefined) return `deal ${d} seats ${JSON.stringify(id)}, who is not an entrant`;
      lastDeal[i] = d;
    }
    for (const g of deal.games) {
      if (g.seats.length !== seats || g.placements.length !== seats) return `deal ${d} has a game that is not ${seats} seats`;
      for (const id of g.seats) {
        const i = index.get(id);
        if (i === undefined) return `deal ${d} has a game seating ${JSON.stringify(id)}, who is not an entrant`;
        games[i]!++;
      }
    }
  }
  return { games, lastDeal };
}

/** θ and the posterior covariance of every entrant from every game so far. */
function rankingOf(index: ReadonlyMap<string, number>, deals: readonly LadderDeal[]): { theta: Float64Array; cov: Float64Array } {
  const games: FitGame[] = deals.flatMap((d) => d.games.map((g) => ({ seats: g.seats.map((id) => index.get(id)!), placements: g.placements })));
  const compiled = compileGames(index.size, games);
  const weights = new Float64Array(games.length).fill(1);
  const { theta } = fitCompiled(compiled, weights, { priorSd: PRIOR_SD, sd: false });
  return { theta, cov: covarianceAt(compiled, weights, theta, { priorSd: PRIOR_SD }) };
}

/** Every r-subset of `items`, in lexicographic order of positions. */
function* subsets<T>(items: readonly T[], r: number): Generator<T[]> {
  const pick = Array.from({ length: r }, (_, i) => i);
  while (true) {
    yield pick.map((i) => items[i]!);
    let i = r - 1;
    while (i >= 0 && pick[i] === items.length - r + i) i--;
    if (i < 0) return;
    pick[i]!++;
    for (let j = i + 1; j < r; j++) pick[j] = pick[j - 1]! + 1;
  }
}

/**
 * The next deal's line-up, or an error value for a request that cannot be met (fewer active
 * entrants than seats) or is inconsistent (a deal naming someone who is not an entrant).
 *
 * @example nextLineup({ entrants: [a, b, c], deals: [], seats: 2, next: prng(7, 'ladder', 0) }) // { ok: true, lineup: two of the three, reason: 'placement', gain: … }
 */
export function nextLineup(request: MatchRequest): Match {
  const { entrants, deals, seats, next } = request;
  const parsed = MatchmakerOptions.safeParse(request.options ?? {});
  if (!parsed.success) return { ok: false, error: 'ladder/bad_request', message: `options: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` };
  const options = parsed.data;
  if (!Number.isInteger(seats) || seats < 2 || seats > 12) return { ok: false, error: 'ladder/bad_request', message: `seats must be a whole number from 2 to 12, got ${seats}` };
  const index = new Map(entrants.map((e, i) => [e.id, i]));
  if (index.size !== entrants.length) return { ok: false, error: 'ladder/bad_request', message: 'entrant ids must be unique' };
  const counts = tally(index, deals, seats);
  if (typeof counts === 'string') return { ok: false, error: 'ladder/bad_request', message: counts };

  // The seeded shuffle is the only tie-break, so ties never fall to the order entrants were listed in.
  const active = shuffled(
    entrants.flatMap((e, i) => (e.status === 'active' ? [i] : [])),
    next,
  );
  if (active.length < seats) return { ok: false, error: 'ladder/too_few_entrants', message: `${active.length} active entrants for ${seats} seats` };

  const dealIndex = deals.length;
  const maxIdle = options.max_idle_deals ?? defaultMaxIdle(active.length, seats);
  const idle = (i: number) => dealIndex - Math.max(counts.lastDeal[i]! + 1, entrants[i]!.joined_at);
  const idlers = active.filter((i) => idle(i) >= maxIdle).sort((a, b) => idle(b) - idle(a));
  const newcomers = active
    .filter((i) => idle(i) < maxIdle && counts.games[i]! < options.placement_games)
    .sort((a, b) => counts.games[a]! - counts.games[b]! || entrants[a]!.joined_at - entrants[b]!.joined_at);
  const forced = [...idlers, ...newcomers].slice(0, seats);
  const reason: MatchReason = idlers.length > 0 ? 'idle' : newcomers.length > 0 ? 'placement' : 'information';

  const { theta, cov } = rankingOf(index, deals);
  const ranked = [...active].sort((a, b) => theta[b]! - theta[a]!);
  const state: RankingState = { theta, cov, pairs: pairWeights(theta, cov, ranked, options.focus_top) };

  const candidates: number[][] = [];
  if (forced.length === seats) candidates.push(forced);
  else if (forced.length > 0) {
    // The seats left go to entrants rated near the forced ones: they are who a deal with them informs.
    const centre = forced.reduce((s, i) => s + theta[i]!, 0) / forced.length;
    const free = seats - forced.length;
    const pool = ranked.filter((i) => !forced.includes(i)).sort((a, b) => Math.abs(theta[a]! - centre) - Math.abs(theta[b]! - centre));
    for (const rest of subsets(pool.slice(0, free + SPAN), free)) candidates.push([...forced, ...rest]);
  } else {
    const width = Math.min(seats + SPAN, ranked.length);
    const seen = new Set<string>();
    for (let start = 0; start + width <= ranked.length; start++)
      for (const group of subsets(ranked.slice(start, start + width), seats)) {
        const key = group.join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        candidates.push(group);
      }
  }

  let best = candidates[0]!;
  let bestGain = -Infinity;
  for (const c of candidates) {
    const gain = dealScore(state, c, seats);
    if (gain > bestGain) {
      best = c;
      bestGain = gain;
    }
  }
  return { ok: true, lineup: shuffled(best, next).map((i) => entrants[i]!.id), reason, gain: bestGain };
}
