import type { DealRecord, LadderRecord } from '../store/index.js';
import { DEFAULT_RESAMPLES } from '../tournament/bootstrap.js';
import { seatPlacements } from '../tournament/results.js';
import { LIVE_RESAMPLES, standings } from '../tournament/standings.js';
import type { GameResult, Standing } from '../tournament/types.js';

/**
 * Every `CHECKPOINT` done deals the stored standings are exact (the full bootstrap); between, the
 * fit is still exact (it is cheap) but the intervals use the live table's fewer resamples. Which
 * deals are checkpoints depends on the deal number only, so an interrupted and resumed ladder stores
 * the same history as one that ran straight through.
 */
export const CHECKPOINT = 10;

const pad = (n: number) => String(n).padStart(6, '0');

/** A ladder game's result key: `d<deal>-p<rotation>`, so the group bootstrap resamples whole deals. */
export const resultKey = (deal: number, rotation: number): string => `d${pad(deal)}-p${rotation}`;

/** The results the standings fold: every game of every done deal. */
export function ladderResults(deals: readonly DealRecord[]): GameResult[] {
  return deals
    .filter((d) => d.status === 'done')
    .flatMap((d) => d.games.map((g) => ({ key: resultKey(d.deal, g.rotation), round: d.deal, seats: g.seats, placements: seatPlacements(g.seats.length, g.placements ?? []) })));
}

/** The standings after `results` for a ladder (every entrant ever, retired and suspended too). */
export function ladderStandings(ladder: Pick<LadderRecord, 'seed' | 'entrants'>, results: readonly GameResult[], exact: boolean): Standing[] {
  return standings({ entrants: ladder.entrants.map((e) => e.agent), seed: ladder.seed }, results, { resamples: exact ? DEFAULT_RESAMPLES : LIVE_RESAMPLES });
}
