import { prng } from '../../src/tournament/seeds.js';
import { parseTournamentConfig, type TournamentConfigInput } from '../../src/tournament/config.js';
import type { GameResult, Scheduler, ScheduledGame, TournamentConfig } from '../../src/tournament/types.js';

/** Built-in-like names so configs validate without touching skills or providers. */
export const NAMES = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a10', 'a11', 'a12', 'a13', 'a14', 'a15'];

/** A config from input, agent specs accepted as they are (the formats never resolve them). */
export function config(input: Partial<TournamentConfigInput> & Pick<TournamentConfigInput, 'format' | 'entrants' | 'seats'>): TournamentConfig {
  const r = parseTournamentConfig(input, () => ({ ok: true }));
  if (!r.ok) throw new Error(r.message);
  return r.config;
}

/**
 * A synthetic game: each seat's score is its agent's strength plus seeded noise of spread
 * `noise`; higher score places better. Deterministic in (game seed, seats).
 */
export function synthetic(strength: (agent: string) => number, noise = 1) {
  return (g: ScheduledGame): GameResult => {
    const next = prng(g.seed, ...g.seats);
    const scores = g.seats.map((a) => strength(a) + noise * next());
    const placements = scores.map((s) => 1 + scores.filter((t) => t > s).length);
    return { key: g.key, round: g.round, seats: g.seats, placements };
  };
}

/** Drives a scheduler to `done` with a result function; returns every batch and every result. */
export function drive(cfg: TournamentConfig, scheduler: Scheduler, play: (g: ScheduledGame) => GameResult) {
  const results: GameResult[] = [];
  const batches: ScheduledGame[][] = [];
  for (let guard = 0; guard < 10_000; guard++) {
    const batch = scheduler(cfg, results);
    if (batch === 'done') return { results, batches };
    batches.push(batch);
    results.push(...batch.map(play));
  }
  throw new Error('the scheduler never finished');
}

/** Strength by name: `aN` has strength N (so a higher index is stronger). */
export const byIndex = (agent: string) => Number(agent.slice(1));
