/**
 * The contract of the ladder's matchmaker (matchmaker.ts): plain data in, one line-up out. The
 * ladder's store, runner, CLI and page sit around it; the matchmaker itself does no I/O, reads no
 * clock and draws randomness only from the generator it is given, so the same inputs and the same
 * seed give the same line-up.
 */
import { z } from 'zod';

export const ENTRANT_STATUSES = ['active', 'retired', 'suspended'] as const;
export type EntrantStatus = (typeof ENTRANT_STATUSES)[number];

/** An entrant as the matchmaker sees it. Only `active` ones are scheduled; everyone's games count in the fit. */
export type LadderEntrant = {
  /** The agent spec (`balanced`, `skill:<folder>`, `llm:…`): unique within a ladder. */
  id: string;
  /** The index of the first deal played after it joined (the ladder's deal count when it joined). */
  joined_at: number;
  status: EntrantStatus;
};

/** One game of a deal: the entrant in each seat and each seat's placement (1 = won; ties share one). */
export type LadderGame = { seats: readonly string[]; placements: readonly number[] };

/**
 * One deal: the line-up the matchmaker chose and the games played from it (its seat rotations, the
 * duplicates; fewer than `seats` while the deal is still being played). Deal i is `deals[i]`.
 */
export type LadderDeal = { lineup: readonly string[]; games: readonly LadderGame[] };

const int = () => z.number().int();

/** The matchmaker's knobs; every one has a default (the values the bench measured). */
export const MatchmakerOptions = z.strictObject({
  /** A newcomer is placed first until it has played this many games (2 deals at 4 seats). */
  placement_games: int().min(0).max(1000).default(8),
  /**
   * No active entrant sits out more than this many deals in a row before it is scheduled first
   * (null: 4 × ⌈active entrants / seats⌉, a few "rounds" of the field).
   */
  max_idle_deals: int().min(1).max(100_000).nullable().default(null),
  /**
   * Which part of the ranking to settle: the order of the top `focus_top` and who is in it (null:
   * the whole ranking). A leaderboard is read from the top, so a ladder may spend its games there.
   */
  focus_top: int().min(1).max(10_000).nullable().default(null),
});
export type MatchmakerOptionsInput = z.input<typeof MatchmakerOptions>;
export type MatchmakerOptionsValue = z.output<typeof MatchmakerOptions>;

/** Everything the matchmaker needs to choose the next deal. */
export type MatchRequest = {
  entrants: readonly LadderEntrant[];
  /** Every deal so far, in play order (retired and suspended entrants' games included). */
  deals: readonly LadderDeal[];
  /** Seats per game: the line-up's size and the number of rotations a deal is played in. */
  seats: number;
  /** A seeded uniform [0, 1) generator (e.g. `prng(seed, 'ladder', deals.length)` from tournament/seeds.ts). */
  next: () => number;
  options?: MatchmakerOptionsInput;
};

/** Why a line-up was chosen: what its first seat was scheduled for. */
export const MATCH_REASONS = ['idle', 'placement', 'information'] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];

export type Match =
  | {
      ok: true;
      /** The next deal's entrants: play it in every rotation (see `dealRotations`). */
      lineup: string[];
      reason: MatchReason;
      /** The information score of the chosen line-up (see information.ts); 0 when it was forced whole. */
      gain: number;
    }
  | { ok: false; error: 'ladder/too_few_entrants' | 'ladder/bad_request'; message: string };
