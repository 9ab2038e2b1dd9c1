/**
 * The contract between the pure tournament core (formats, ratings, standings) and what runs it
 * (the runner, the store, the CLI and the server). Everything here is plain data: a tournament's
 * whole course is a function of its config and the results of the games played so far.
 */

export const FORMATS = ['round-robin', 'swiss', 'gauntlet'] as const;
export type FormatName = (typeof FORMATS)[number];

/** A tournament as configured (validated at the edges with zod; see `config.ts`). */
export type TournamentConfig = {
  format: FormatName;
  /** Agent specs (built-in names, `skill:<folder>`, `llm:…`), each one entrant; ≥ `seats`, no repeats. */
  entrants: string[];
  /** Seats per table. */
  seats: number;
  /** Seeds per table (round-robin) or per round (swiss); each seed is played in every rotation when `duplicate`. */
  seeds: number;
  /** The tournament's seed: every game seed and every sampling derives from it. */
  seed: number;
  /** Upper bound on the number of games (the budget); null = whatever the format schedules. */
  max_games: number | null;
  /** Duplicate seeds: each seed played once in every seat rotation of its table (on by default). */
  duplicate: boolean;
  /**
   * Stop once the top-k entrants' intervals are separated (null = play the whole schedule); see
   * `separation.ts`. `min_games` (default 20): games each of the top k must have played first.
   */
  stop_when_separated: { top_k: number; min_games?: number } | null;
  /** Swiss: the number of rounds (null = a default from the entrant count). */
  rounds: number | null;
  /** Gauntlet: the challenger (one of `entrants`); the others are the field. */
  challenger: string | null;
  compact: boolean;
  /** Rate degraded games (an LLM seat out of budget: src/runner/degraded.ts); absent or false, they count for no one. */
  rate_degraded?: boolean;
  /** LLM entrants with no price may play (opted in): their cost is reported as unknown. */
  allow_unpriced?: boolean;
  /** Rules overrides for every game (validated as the engine's RulesConfig). */
  rules: Record<string, unknown>;
};

/**
 * One game to play. `seats[i]` is the entrant in seat i. `key` is unique within a tournament and
 * stable (the same schedule gives the same keys), so a resumed runner knows which games exist.
 */
export type ScheduledGame = {
  key: string;
  round: number;
  table: number;
  /** The engine seed of this game (duplicates of one deal share it). */
  seed: number;
  seats: string[];
};

/** A finished game as the core sees it: who sat where and where each seat placed (1 = won). */
export type GameResult = {
  key: string;
  round: number;
  /** Entrant per seat, in seat order. */
  seats: string[];
  /** Placement per seat, in seat order (1-based; ties share a placement). */
  placements: number[];
};

/** Per entrant after some games (see standings.ts). */
export type Standing = {
  agent: string;
  /** The rating: the Plackett–Luce fit's posterior mode on openskill's scale — the ranking key. */
  mu: number;
  /** The rating's standard deviation over the bootstrap resamples (the prior's 25/3 before any game). */
  sigma: number;
  /** 95 % bootstrap intervals (seeded, resampling duplicate groups), null before any game. */
  rating_ci: { value: number; low: number; high: number } | null;
  games: number;
  wins: number;
  mean_placement: number | null;
  win_rate: { value: number; low: number; high: number } | null;
  placement_ci: { value: number; low: number; high: number } | null;
  /**
   * Skill beside the rating: mean win probability added per decision (src/eval/wpa.ts) with its
   * 95 % interval, resampling the rating's duplicate groups (wpa-standings.ts). Absent where it was
   * not computed (the runner's stored table; a caller who may not see ended games' hidden parts);
   * null for an agent with no measured decision.
   */
  wpa?: { value: number; low: number; high: number } | null;
  /** The decisions behind `wpa`. */
  wpa_decisions?: number;
};

/**
 * A format: given the config and the results so far (in the order the runner recorded them),
 * the next batch of games to play, or `done`. Pure and deterministic; a batch is one "round"
 * whose games may run concurrently (swiss needs a round's results before pairing the next).
 */
export type Scheduler = (config: TournamentConfig, results: readonly GameResult[]) => ScheduledGame[] | 'done';
