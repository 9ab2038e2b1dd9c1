import { dealGames, capGames, unplayed } from './duplicate.js';
import { fitRatings } from './fit-standings.js';
import { deriveSeed, prng, shuffled } from './seeds.js';
import { separated } from './separation.js';
import { standings } from './standings.js';
import type { GameResult, Scheduler, ScheduledGame, TournamentConfig } from './types.js';

/** A repeat meeting costs more than any rating spread a table can have, so repeats go first. */
const REPEAT_COST = 1_000_000;
/** Bound on improvement passes per round (each pass tries every swap once). */
/** Seeded restarts of the swap search beside the ranked start (see swissTables). */
const RESTARTS = 8;
const MAX_PASSES = 50;

const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

/** For each pair, the number of earlier rounds in which it shared a table. */
function meetings(results: readonly GameResult[]): Map<string, number> {
  const seen = new Set<string>();
  const out = new Map<string, number>();
  for (const r of results)
    for (let i = 0; i < r.seats.length; i++)
      for (let j = i + 1; j < r.seats.length; j++) {
        const k = pairKey(r.seats[i]!, r.seats[j]!);
        const once = `${r.round}\u0000${k}`;
        if (seen.has(once)) continue;
        seen.add(once);
        out.set(k, (out.get(k) ?? 0) + 1);
      }
  return out;
}

/**
 * Round r's tables, from the results of rounds before it only:
 * 1. rank entrants by their fitted rating μ (best first), ties in a seeded order (all tie in round 0: a seeded draw);
 * 2. when the entrant count is not a multiple of the seats, the n mod k who sit this round out are
 *    those with the fewest sit-outs so far, lowest ranked first (a rotating sit-out: nobody sits out
 *    twice before everyone has once);
 * 3. cut the ranked rest into consecutive tables of k, then swap entrants between tables while a
 *    swap lowers the cost: 10⁶ per earlier meeting of two table-mates, plus each table's rank span;
 *    the same from seeded shuffles of the ranked order, keeping the pairing with the fewest repeats,
 *    then the fewest the next round could not avoid, then the most level tables.
 */
export function swissTables(config: TournamentConfig, round: number, prior: readonly GameResult[]): string[][] {
  const ratings = fitRatings(config.entrants, prior);
  const tieOrder = new Map(shuffled(config.entrants, prng(config.seed, 'swiss-ties', round)).map((e, i) => [e, i]));
  const ranked = [...config.entrants].sort((a, b) => ratings.get(b)!.mu - ratings.get(a)!.mu || tieOrder.get(a)! - tieOrder.get(b)!);
  const rank = new Map(ranked.map((e, i) => [e, i]));
  const k = config.seats;
  const sitOuts = ranked.length % k;
  const played = new Map<string, Set<number>>(ranked.map((e) => [e, new Set()]));
  for (const r of prior) for (const e of r.seats) played.get(e)?.add(r.round);
  const byes = (e: string) => round - played.get(e)!.size;
  const out = new Set([...ranked].sort((a, b) => byes(a) - byes(b) || rank.get(b)! - rank.get(a)!).slice(0, sitOuts));
  const seated = ranked.filter((e) => !out.has(e));
  /** A table's cost given who has met: 10⁶ per earlier meeting of two table-mates, plus its rank span. */
  const costWith = (met: ReadonlyMap<string, number>) => (table: readonly string[]) => {
    let c = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < table.length; i++) {
      const ri = rank.get(table[i]!)!;
      lo = Math.min(lo, ri);
      hi = Math.max(hi, ri);
      for (let j = i + 1; j < table.length; j++) c += REPEAT_COST * (met.get(pairKey(table[i]!, table[j]!)) ?? 0);
    }
    return c + (hi - lo);
  };
  /** Swaps entrants between tables while a swap lowers the cost (a local search from `start`). */
  const improve = (start: readonly string[], cost: (t: readonly string[]) => number): string[][] => {
    const tables = Array.from({ length: start.length / k }, (_, t) => start.slice(t * k, t * k + k));
    for (let pass = 0, improved = true; improved && pass < MAX_PASSES; pass++) {
      improved = false;
      for (let a = 0; a < tables.length; a++)
        for (let b = a + 1; b < tables.length; b++)
          for (let i = 0; i < k; i++)
            for (let j = 0; j < k; j++) {
              const [ta, tb] = [tables[a]!, tables[b]!];
              const before = cost(ta) + cost(tb);
              [ta[i], tb[j]] = [tb[j]!, ta[i]!];
              if (cost(ta) + cost(tb) < before) improved = true;
              else [ta[i], tb[j]] = [tb[j]!, ta[i]!];
            }
    }
    return tables;
  };
  const met = meetings(prior);
  const cost = costWith(met);
  const repeats = (tables: readonly string[][], c: (t: readonly string[]) => number) => tables.reduce((n, t) => n + Math.floor(c(t) / REPEAT_COST), 0);
  const span = (tables: readonly string[][]) => tables.reduce((n, t) => n + (cost(t) % REPEAT_COST), 0);
  /** Repeats the next round could not avoid after `tables` (same seated set, same ranks: a one-round look-ahead). */
  const nextRepeats = (tables: readonly string[][]) => {
    if (round + 1 >= (config.rounds ?? 1)) return 0;
    const after = new Map(met);
    for (const t of tables) for (let i = 0; i < t.length; i++) for (let j = i + 1; j < t.length; j++) after.set(pairKey(t[i]!, t[j]!), (after.get(pairKey(t[i]!, t[j]!)) ?? 0) + 1);
    const c = costWith(after);
    return repeats(improve(seated, c), c);
  };
  // A swap search from the ranked order can stop in a local minimum with a repeat that a whole
  // re-pairing avoids, or pair this round so that the next cannot avoid one (late in a swiss few
  // unmet pairs are left, and they may no longer split into tables). So candidates come from the
  // ranked start and seeded shuffles of it, and the best wins by (repeats now, repeats the next
  // round cannot avoid, rank span), the ranked start winning ties.
  const candidates = [seated, ...Array.from({ length: RESTARTS }, (_, i) => shuffled(seated, prng(config.seed, 'swiss-restart', round, i)))];
  let tables: string[][] = [];
  let best = [Infinity, Infinity, Infinity];
  for (const start of candidates) {
    const t = improve(start, cost);
    const score = [repeats(t, cost), nextRepeats(t), span(t)];
    if (score[0]! < best[0]! || (score[0] === best[0] && (score[1]! < best[1]! || (score[1] === best[1] && score[2]! < best[2]!)))) [tables, best] = [t, score];
  }
  // Seat order within a table: by rank, so rotation 0 seats the best-ranked in seat 0.
  return tables.map((t) => [...t].sort((x, y) => rank.get(x)! - rank.get(y)!));
}

/** Round r's games: each table plays `seeds` deals (in every rotation when duplicate). */
export function swissRound(config: TournamentConfig, round: number, prior: readonly GameResult[]): ScheduledGame[] {
  const games: ScheduledGame[] = [];
  swissTables(config, round, prior).forEach((entrants, t) => {
    for (let d = 0; d < config.seeds; d++)
      games.push(...dealGames(config, { round, table: t, deal: d }, deriveSeed(config.seed, 'swiss', round, t, d), entrants, round + d));
  });
  return games;
}

/**
 * The swiss format: rounds 0..rounds−1, each paired from the results of the rounds before it
 * (so a round's batch is only known once the previous one is complete). Ends after the last
 * round, when `max_games` leaves no room for a whole duplicate group of the next round, or (with
 * the stop rule) when the standings after a complete round are separated.
 */
export const swiss: Scheduler = (config, results) => {
  const rounds = config.rounds ?? 1;
  for (let r = 0; r < rounds; r++) {
    const prior = results.filter((x) => x.round < r);
    const games = capGames(swissRound(config, r, prior), config.max_games === null ? null : config.max_games - prior.length);
    if (games.length === 0) return 'done';
    const left = unplayed(games, results);
    if (left.length === 0) continue;
    // The stop rule is asked only before a round starts (an earlier round boundary that was
    // separated would have ended the tournament then); a round already begun is finished.
    const fresh = left.length === games.length;
    if (r > 0 && fresh && config.stop_when_separated && separated(standings(config, prior), config.stop_when_separated)) return 'done';
    return left;
  }
  return 'done';
};
