/* Types only, no imports: the headless view model and its unit test (test/, no DOM) read them. */
/** The shapes of GET /ladders and GET /ladders/:id the page and the lobby use (src/ladder/ladder-view.ts). */
export type Interval = { value: number; low: number; high: number } | null;

export type LadderStanding = { agent: string; mu: number; sigma: number; rating_ci: Interval; games: number; wins: number; mean_placement: number | null };

export type LadderEntrant = {
  agent: string;
  status: 'active' | 'retired' | 'suspended';
  cause: string | null;
  newcomer: boolean;
  games: number;
  joined_at: string;
  admitted: boolean;
};

export type RatingPoint = { deal: number; agent: string; mu: number; low: number | null; high: number | null; games: number };

export type LadderGame = { game_id: string; deal: number; seats: string[]; status: string; placements: number[] | null; deal_status: string; ended_at: string | null };

export type Ladder = {
  ladder_id: string;
  name: string;
  seats: number;
  compact: boolean;
  status: string;
  created_at: string;
  deals: number;
  deals_done: number;
  games: number;
  standings: LadderStanding[];
  entrants: LadderEntrant[];
  history: RatingPoint[];
  recent_games: LadderGame[];
};

/** A ladder as GET /ladders lists it. */
export type LadderSummary = { ladder_id: string; name: string; seats: number; compact: boolean; status: string; entrants: number; suspended: number; deals: number; created_at: string };

