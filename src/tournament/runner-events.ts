import type { Standing } from './types.js';

/**
 * What a running tournament reports (to a progress bar, a live table, the server's lobby). The
 * standings ride along whenever the runner recomputed them (throttled while games finish; always
 * at the end of a batch and of the tournament), else null.
 */
export type TournamentEvent =
  | { type: 'tournament_started'; tournament_id: string; resumed: boolean; scheduled: number; done: number; failed: number }
  | {
      type: 'game_ended';
      tournament_id: string;
      game_id: string;
      key: string;
      seats: string[];
      /** Placement per seat, or null when the game failed. */
      placements: number[] | null;
      error: string | null;
      /** Games ended and failed so far, and scheduled so far (the schedule grows batch by batch). */
      done: number;
      failed: number;
      scheduled: number;
      standings: Standing[] | null;
    }
  | ({ type: 'tournament_ended' } & TournamentOutcome);

/**
 * How a tournament run stopped: `ended` (the format is done), `stopped` (the signal; resume it
 * later) or `stopped_by_budget` (the recorded cost reached `max_cost_usd`; resume with a higher one).
 */
export type TournamentOutcome = {
  tournament_id: string;
  status: 'ended' | 'stopped' | 'stopped_by_budget';
  /** With a cost limit: the recorded provider cost (USD), the limit, and the largest single call's worst case reserved. */
  cost_usd?: number;
  max_cost_usd?: number;
  worst_call_usd?: number;
  /** Set when entrants with no price played (allow_unpriced): `cost_usd` then leaves their calls out, so it is unknown. */
  cost_unknown?: boolean;
  /** Games the schedule plans (an upper bound with a stop rule). */
  planned: number;
  /** Games ended (with results) and failed, over the whole tournament so far. */
  done: number;
  failed: number;
  /** Games started and not finished when the run stopped (cut by the cost cap or the signal): out of the ratings, resumable. */
  stopped: number;
  standings: Standing[];
};
