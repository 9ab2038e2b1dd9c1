import { getJson, ApiError } from '../lib/api.js';
import { leader } from '../../../src/view/leader.js';
import { winChances } from '../../../src/eval/model.js';
import { chanceLeader } from '../../../src/eval/chance-words.js';
import type { View } from '../panels/types.js';

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

/**
 * What the lobby adds for a live game from its public (spectator) snapshot: the round, who leads
 * (by name and id) and, where the model has a view, that seat's chance to win, and the view itself
 * for its small table.
 */
export type LiveInfo = { turn: number; phase: string; leader: string | null; leader_id: string | null; chance: number | null; alive: number; seq: number; view: View };

/**
 * How many live games the lobby reads a snapshot of (and draws as a small table): the rest are
 * rows. Each is one request per refresh, so a server with fifty tables costs a visitor six.
 */
export const MINI_TABLES = 6;

/** A tournament as `GET /tournaments` lists it (the fields the lobby shows). */
export type TournamentSummary = { tournament_id: string; name: string; status: string; progress: { played: number; scheduled: number; running: number; failed: number } };

type PublicPlayer = { player_id: string; display_name: string; alive: boolean; lives: number; resolve: number };

/**
 * Who leads a table (the shared `leader`: the living seat with the most lives, then resolve); null
 * on a tie for the top (a lobby should not invent a leader).
 */
export function leaderOf(players: PublicPlayer[]): string | null {
  const a = leadingSeat(players);
  return a ? a.display_name || a.player_id : null;
}

/** The seat leaderOf names (the shared `leader`), or null on a tie for the top. */
export function leadingSeat<P extends PublicPlayer>(players: P[]): P | null {
  const l = leader(players);
  if (l?.kind !== 'leads') return null;
  return players.find((p) => p.player_id === l.player_id) ?? null;
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

/** A live game's public snapshot (the spectator view: what an anonymous visitor may see, after any delay). */
export async function liveInfo(gameId: string): Promise<LiveInfo> {
  const snap = await getJson<{ seq: number; state: View }>(`/games/${encodeURIComponent(gameId)}/snapshot?view=spectator`);
  const w = snap.state.world;
  const top = modelLeader(snap.state);
  const lead = top ? (w.players.find((p) => p.player_id === top.player_id) ?? null) : leadingSeat(w.players);
  return { turn: w.turn, phase: w.phase, leader: lead ? lead.display_name || lead.player_id : null, leader_id: lead?.player_id ?? null, chance: top?.p ?? null, alive: w.players.filter((p) => p.alive).length, seq: snap.seq, view: snap.state };
}

/**
 * Who the public model has ahead on a spectator's table, and their chance: the model reads the
 * public table alone, as the game page does for anyone without a token. Null before the deal, at
 * the end (the result says it) and on a tie at the top (lives and resolve then decide the words).
 */
export function modelLeader(view: View): { player_id: string; p: number } | null {
  if (view.world.players.length === 0 || view.world.status === 'done') return null;
  return chanceLeader(winChances(view, 'public'));
}

/**
 * The live games worth a snapshot, at most MINI_TABLES: those outside tournaments first (the demo
 * table, a person's games), then tournament games, newest first within each.
 */
export function sampled(live: readonly GameSummary[], standalone: readonly GameSummary[]): GameSummary[] {
  const mine = new Set(standalone.map((g) => g.game_id));
  const running = live.filter((g) => g.status === 'running');
  return [...running.filter((g) => mine.has(g.game_id)), ...running.filter((g) => !mine.has(g.game_id))].slice(0, MINI_TABLES);
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
