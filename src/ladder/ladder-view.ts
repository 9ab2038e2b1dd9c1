import type { EventStore, LadderRecord, RatingPoint } from '../store/index.js';
import type { Standing } from '../tournament/types.js';
import { ladderResults, ladderStandings } from './ladder-standings.js';
import { MatchmakerOptions } from './types.js';

/** An entrant is a newcomer while the matchmaker still places it: fewer games than its placement_games. */
const PLACEMENT_GAMES = MatchmakerOptions.parse({}).placement_games;
/** Recent games listed with a ladder. */
export const RECENT_GAMES = 20;

export type LadderEntrantView = {
  agent: string;
  status: 'active' | 'retired' | 'suspended';
  cause: string | null;
  newcomer: boolean;
  games: number;
  joined_at: string;
  admitted: boolean;
  max_usd_per_day: number | null;
  max_usd_total: number | null;
};

export type LadderView = {
  ladder_id: string;
  name: string;
  seats: number;
  compact: boolean;
  status: LadderRecord['status'];
  created_at: string;
  deals: number;
  deals_done: number;
  games: number;
  /** Exact (the full bootstrap) over every done deal. */
  standings: Standing[];
  entrants: LadderEntrantView[];
  /** Each entrant's rating after each done deal. */
  history: RatingPoint[];
  /** The latest games first; `playing`: the deal being played. */
  recent_games: { game_id: string; deal: number; seats: string[]; status: string; placements: number[] | null; deal_status: string; ended_at: string | null }[];
};

/** A ladder's listing line (GET /ladders, `ladder list`). */
export const ladderSummary = (l: LadderRecord) => ({
  ladder_id: l.ladder_id,
  name: l.name,
  seats: l.seats,
  compact: l.compact,
  status: l.status,
  entrants: l.entrants.filter((e) => e.status === 'active').length,
  suspended: l.entrants.filter((e) => e.status === 'suspended').length,
  deals: l.deals_done,
  created_at: l.created_at,
});

/** Everything the ladder page and `ladder standings` show, read from the store. */
export async function ladderView(store: EventStore, ladderId: string): Promise<LadderView> {
  const ladder = await store.ladders.get(ladderId);
  const deals = await store.ladders.deals(ladderId);
  const results = ladderResults(deals);
  const standings = ladderStandings(ladder, results, true);
  const games = new Map(standings.map((s) => [s.agent, s.games]));
  const recent = deals
    .slice(-Math.ceil(RECENT_GAMES / Math.max(1, ladder.seats)) - 1)
    .flatMap((d) => d.games.map((g) => ({ game_id: g.game_id, deal: d.deal, seats: g.seats, status: g.status, placements: g.placements ? g.seats.map((_, i) => g.placements!.find((p) => p.player_id === `plr_${i + 1}`)?.placement ?? 0) : null, deal_status: d.status, ended_at: g.ended_at })))
    .reverse()
    .slice(0, RECENT_GAMES);
  return {
    ladder_id: ladder.ladder_id,
    name: ladder.name,
    seats: ladder.seats,
    compact: ladder.compact,
    status: ladder.status,
    created_at: ladder.created_at,
    deals: ladder.deals,
    deals_done: ladder.deals_done,
    games: results.length,
    standings,
    entrants: ladder.entrants.map((e) => ({
      agent: e.agent,
      status: e.status,
      cause: e.cause,
      newcomer: e.status === 'active' && (games.get(e.agent) ?? 0) < PLACEMENT_GAMES,
      games: games.get(e.agent) ?? 0,
      joined_at: e.joined_at,
      admitted: e.admitted_at !== null,
      max_usd_per_day: e.max_usd_per_day,
      max_usd_total: e.max_usd_total,
    })),
    history: await store.ladders.history(ladderId),
    recent_games: recent,
  };
}
