import type { GameEvent } from '../protocol/index.js';
import type { AgentResearch, PairResearch } from '../runner/research-figures.js';
import type { ProviderUsage } from '../runner/research-tally.js';
import { SimStats, type SimFigures } from '../runner/sim-stats.js';
import { attackMatrix, attackRows, type AttackCell } from './attacks.js';
import type { Ask } from '../eval/wpa.js';
import { DEFAULT_RESAMPLES } from './bootstrap.js';
import { ChoiceShiftTally, SHIFT_BOOTSTRAP_SEED, type ChoiceShiftFigures } from './choice-shift.js';
import { groupKey } from './group-bootstrap.js';
import { wpaFigures, wpaTally, type GameWpaTally, type WpaRow } from './wpa-figures.js';

/** One finished game of a tournament, as read from the store. */
export type ReportGame = {
  /** Its id, for the attacks' links (games without one are named by position: `#0`, `#1`, …). */
  game_id?: string;
  /** The full (admin) event log. */
  events: readonly GameEvent[];
  /** The agent of each seat: by seat index, or by player_id (`{ plr_1: 'balanced', … }`). */
  seats: readonly string[] | Readonly<Record<string, string>>;
  /** provider_calls rows of its LLM seats. */
  providerCalls?: readonly ProviderUsage[];
  /** Decisions taken (for the rejection rate); unknown → the rate is null. */
  decisions?: number;
  /** Its schedule key: the games of one duplicate group resample together (without one, a game is its own group). */
  key?: string;
  /**
   * The engine's asks (its stored decisions), grouping its choice events into decisions for WPA.
   * A game with neither asks nor `wpa` is left out of the WPA figures: only a real, stored log
   * folds into win probabilities (hand-made logs hold just the fields the other figures read).
   */
  asks?: readonly Ask[];
  /** Its WPA tally when already known (ended games never change: callers may keep it). */
  wpa?: GameWpaTally;
};

/** A tournament's research report: the simulation figures of its games, plus per agent and per pair. */
export type Report = {
  games: number;
  /** Whole-tournament figures, as `simulate` reports them (by agent, card shares, slips, …). */
  overall: SimFigures;
  agents: AgentResearch[];
  pairs: PairResearch[];
  /** The who-manipulated-whom matrix: per ordered pair, the manipulation attempts behind `pairs[].manipulation`. */
  attacks: AttackCell[];
  /**
   * Emotion → choice: how a successful manipulation with each emotional intent moved its target's
   * attack and defensive share the round after, pooled and per target, with 95 % bootstrap intervals
   * resampling whole duplicate groups (games without a key: each its own group), cells with few
   * samples or groups flagged `few_samples`.
   */
  choice_shift: ChoiceShiftFigures;
  /**
   * Win probability added: each agent's mean choice WPA per decision, over all its decisions
   * (`kind` all) and per window, with 95 % intervals resampling whole duplicate groups (games
   * without a key: each its own group), seeded like choice_shift.
   */
  wpa: WpaRow[];
};

/** Agent by seat index, from a seat list or a player_id map read through game_started. */
export function agentsBySeat(game: ReportGame): string[] {
  if (Array.isArray(game.seats)) return [...(game.seats as readonly string[])];
  const byPlayer = game.seats as Readonly<Record<string, string>>;
  const started = game.events.find((e) => e.type === 'game_started');
  if (started?.type !== 'game_started') throw new Error('a game without game_started cannot be reported');
  const out: string[] = [];
  for (const p of started.payload.players) {
    const agent = byPlayer[p.player_id];
    if (agent === undefined) throw new Error(`no agent given for ${p.player_id}`);
    out[p.seat] = agent;
  }
  return out;
}

/**
 * The research report of a tournament's finished games, from their stored events only (and the
 * provider calls of LLM seats). Pure: the same games in the same order give the same report.
 *
 * @example tournamentReport([{ events, seats: ['balanced', 'random'] }]).agents[0].manipulation_given.success_rate
 */
export function tournamentReport(games: readonly ReportGame[]): Report {
  const stats = new SimStats();
  const shifts = new ChoiceShiftTally();
  games.forEach((g, i) => {
    const agents = agentsBySeat(g);
    const cluster = clusterOf(g, i);
    stats.add({ events: g.events, decisions: g.decisions ?? 0, agents, cluster, ...(g.providerCalls ? { providerCalls: g.providerCalls } : {}) });
    shifts.add(g.events, agents, cluster);
  });
  const { agents, pairs } = stats.research();
  const overall = stats.figures();
  if (games.some((g) => g.decisions === undefined)) overall.rejectionRate = null;
  const attacks = attackMatrix(games.flatMap((g, i) => attackRows(g.game_id ?? `#${i}`, g.events, agentsBySeat(g))));
  return { games: games.length, overall, agents, pairs, attacks, choice_shift: shifts.figures(), wpa: reportWpa(games) };
}

/** A game's bootstrap cluster: its duplicate group, or (outside one) the game itself. */
const clusterOf = (g: ReportGame, i: number): string => (g.key !== undefined ? groupKey(g.key) : (g.game_id ?? `#${i}`));

/** The report's WPA rows: agents by name, bootstrap seeded as the choice shifts' (the tournament seed may still be hidden). */
function reportWpa(games: readonly ReportGame[]): WpaRow[] {
  const stored = games.filter((g) => g.wpa !== undefined || g.asks !== undefined);
  const wpaGames = stored.map((g, i) => ({ group: clusterOf(g, i), tally: g.wpa ?? wpaTally(g.events, agentsBySeat(g), g.asks) }));
  const agents = [...new Set(stored.flatMap((g) => agentsBySeat(g)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return wpaFigures(agents, wpaGames, SHIFT_BOOTSTRAP_SEED, DEFAULT_RESAMPLES);
}
