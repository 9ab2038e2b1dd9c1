import { getJson } from '../lib/api.js';

/** The shapes of GET /tournaments/:id and /tournaments/:id/attacks the page uses (see src/server/tournaments). */
export type Interval = { value: number; low: number; high: number } | null;

export type Standing = {
  agent: string;
  /** The fitted rating (the ranking key) and its posterior sd; see docs/tournaments.md. */
  mu: number;
  sigma: number;
  /** Absent in standings stored by releases before the order-free fit. */
  rating_ci?: Interval;
  games: number;
  wins: number;
  mean_placement: number | null;
  win_rate: Interval;
  placement_ci: Interval;
  /** Mean win probability added per decision: sent to admins and researchers only (it reads hidden parts). */
  wpa?: Interval;
  wpa_decisions?: number;
};

export type HeadToHead = { a: string; b: string; games: number; above: number; level: number; below: number };

export type TournamentGame = {
  game_id: string;
  key: string;
  round: number;
  table: number;
  seats: string[];
  status: string;
  placements: number[] | null;
  error: string | null;
};

export type Tournament = {
  tournament_id: string;
  name: string;
  status: 'created' | 'running' | 'ended' | 'aborted';
  config: { format: string; entrants: string[]; seats: number; seed: number | null } & Record<string, unknown>;
  progress: { played: number; scheduled: number; running: number; failed: number };
  created_at: string;
  ended_at: string | null;
  standings: Standing[];
  head_to_head: HeadToHead[];
  games: TournamentGame[];
  /** Admins and researchers only, with LLM entrants: each one's health over its games (docs/providers.md). */
  llm?: Record<string, LlmHealth>;
};

/** The part of an LLM entrant's health the page shows beside its standing. */
export type LlmHealth = { cost_usd: number; games: number; failed_games: number; error_rate: number | null; decisions: number; fell_back: number; fallback_rate: number | null };

export type Attack = {
  game_id: string;
  seq: number;
  turn: number;
  agent: string;
  target: string;
  actor_player_id: string;
  target_player_id: string;
  manipulation_plan: string;
  emotional_intent: string;
  outcome: 'success' | 'partial' | 'failed';
};

export type AttackCell = { agent: string; target: string; attempts: number; successes: number; partial: number; games: string[]; attacks: Attack[] };

export type Attacks = { tournament_id: string; games_counted: number; cells: AttackCell[] };

const path = (id: string, rest = ''): string => `/tournaments/${encodeURIComponent(id)}${rest}`;

/** The tournament and its who-manipulated-whom matrix, read together (both from its ended games). */
export async function loadTournament(id: string, signal?: AbortSignal): Promise<{ t: Tournament; attacks: Attacks }> {
  const [t, attacks] = await Promise.all([getJson<Tournament>(path(id), signal), getJson<Attacks>(path(id, '/attacks'), signal)]);
  return { t, attacks };
}
