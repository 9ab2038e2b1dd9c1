import { getJson, ApiError } from '../lib/api.js';

/** A game as `GET /games` lists it (the fields the lobby shows). */
export type GameSummary = {
  game_id: string;
  status: 'created' | 'running' | 'ended' | 'aborted';
  seats: { seat: number; player_id: string; agent: string; display_name?: string }[];
  last_seq: number;
  placements: { player_id: string; placement: number }[] | null;
  created_at: string;
  ended_at: string | null;
};

/** What the lobby adds for a live game from its public snapshot: the round and who leads. */
export type LiveInfo = { turn: number; phase: string; leader: string | null; alive: number };

/** A tournament as `GET /tournaments` lists it (the fields the lobby shows). */
export type TournamentSummary = { tournament_id: string; name: string; status: string; progress: { played: number; scheduled: number; running: number; failed: number } };

type PublicPlayer = { player_id: string; display_name: string; alive: boolean; lives: number; resolve: number };

/**
 * Who leads a table: the living seat with the most lives, then resolve; null on a tie for the top
 * (a lobby should not invent a leader).
 */
export function leaderOf(players: PublicPlayer[]): string | null {
  const alive = players.filter((p) => p.alive).sort((a, b) => b.lives - a.lives || b.resolve - a.resolve);
  const [a, b] = alive;
  if (!a) return null;
  if (b && b.lives === a.lives && b.resolve === a.resolve) return null;
  return a.display_name || a.player_id;
}

/** The lobby's filters of GET /games: status (comma-separated), agent, tournament id or `none`. Empty: no filter. */
export type GameFilter = { status: string; agent: string; tournament: string };

/** One page of GET /games under a filter, newest first; `next_cursor` for the page after it. */
export async function listGames(filter: Partial<GameFilter>, limit: number, cursor?: string | null): Promise<{ games: GameSummary[]; next_cursor: string | null }> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v) q.set(k, v);
  q.set('limit', String(limit));
  if (cursor) q.set('cursor', cursor);
  return getJson<{ games: GameSummary[]; next_cursor: string | null }>(`/games?${q.toString()}`);
}

/** The agents that can sit (GET /agents), by the spec a game's seat records: the agent filter's suggestions. */
export async function agentSpecs(): Promise<string[]> {
  const c = await getJson<{ builtins?: { spec: string }[]; skills?: { spec: string }[] }>('/agents');
  return [...(c.builtins ?? []), ...(c.skills ?? [])].map((a) => a.spec);
}

/**
 * The live game to feature: the one furthest along (highest round), then with the most seats
 * still in it, then the newest — the table most likely to be deciding something now.
 */
export function featured(live: readonly GameSummary[], info: Record<string, LiveInfo>): GameSummary | null {
  const running = live.filter((g) => g.status === 'running');
  const score = (g: GameSummary) => [info[g.game_id]?.turn ?? -1, info[g.game_id]?.alive ?? 0, Date.parse(g.created_at)];
  let best: GameSummary | null = null;
  for (const g of running) {
    if (!best) best = g;
    else {
      const [a, b] = [score(g), score(best)];
      const i = a.findIndex((x, k) => x !== b[k]);
      if (i >= 0 && a[i]! > b[i]!) best = g;
    }
  }
  return best;
}

export async function liveInfo(gameId: string): Promise<LiveInfo> {
  const snap = await getJson<{ state: { world: { turn: number; phase: string; players: PublicPlayer[] } } }>(`/games/${encodeURIComponent(gameId)}/snapshot?view=spectator`);
  const w = snap.state.world;
  return { turn: w.turn, phase: w.phase, leader: leaderOf(w.players), alive: w.players.filter((p) => p.alive).length };
}

/**
 * The tournaments, or null when this server has no tournaments API (a 404). Asked directly: the
 * lobby used to read the 17 KB OpenAPI document first to learn whether the route exists.
 */
export async function listTournaments(): Promise<TournamentSummary[] | null> {
  try {
    const body = await getJson<{ tournaments?: TournamentSummary[] } | TournamentSummary[]>('/tournaments');
    return Array.isArray(body) ? body : (body.tournaments ?? []);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }
}
