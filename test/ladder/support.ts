import { nextLineup } from '../../src/ladder/matchmaker.js';
import { simulateDeal } from '../../src/ladder/simulate.js';
import type { LadderDeal, LadderEntrant, Match, MatchmakerOptionsInput } from '../../src/ladder/types.js';
import { prng } from '../../src/tournament/seeds.js';

/** Something that happens to the field before deal `at`: an entrant joins or retires. */
export type FieldEvent = { at: number; join: string } | { at: number; retire: string };

export type Drive = {
  seed: number;
  seats: number;
  /** The entrants there from the start. */
  initial: readonly string[];
  strength: (id: string) => number;
  deals: number;
  events?: readonly FieldEvent[];
  options?: MatchmakerOptionsInput;
};

/** One request the matchmaker answered: what it saw and what it chose. */
export type Step = { entrants: LadderEntrant[]; deals: LadderDeal[]; match: Match };

/** Runs a simulated ladder for `deals` deals, applying field events as they come; every step is kept. */
export function drive(d: Drive): { steps: Step[]; deals: LadderDeal[] } {
  const entrants: LadderEntrant[] = d.initial.map((id) => ({ id, joined_at: 0, status: 'active' }));
  const deals: LadderDeal[] = [];
  const steps: Step[] = [];
  const play = prng(d.seed, 'test-play');
  for (let i = 0; i < d.deals; i++) {
    for (const e of d.events ?? []) {
      if (e.at !== i) continue;
      if ('join' in e) entrants.push({ id: e.join, joined_at: i, status: 'active' });
      else entrants.find((x) => x.id === e.retire)!.status = 'retired';
    }
    const match = nextLineup({ entrants: structuredClone(entrants), deals: [...deals], seats: d.seats, next: prng(d.seed, 'test-match', i), options: d.options });
    steps.push({ entrants: structuredClone(entrants), deals: [...deals], match });
    if (!match.ok) break;
    deals.push(simulateDeal(match.lineup, d.strength, play));
  }
  return { steps, deals };
}

export const names = (n: number, prefix = 'e') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
