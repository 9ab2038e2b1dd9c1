import type { GameEvent, Window } from '../protocol/index.js';
import type { Ask } from '../eval/wpa.js';
import { readDecisions, readLog } from '../runner/stored-game.js';
import type { EventStore, TournamentGameRecord, TournamentRecord } from '../store/index.js';
import { ratedResultsOf } from './results.js';
import type { Standing, TournamentConfig } from './types.js';
import { wpaTally, type GameWpaTally } from './wpa-figures.js';
import { withWpa } from './wpa-standings.js';

/**
 * Ended games' WPA tallies by game id and log: folding a game at every event costs ~0.1 s, and an
 * ended game never changes, so the report and the standings asked again read them from here.
 * Bounded: the oldest entry goes first.
 */
const CACHE_SIZE = 20_000;
const cache = new Map<string, GameWpaTally>();

/** The engine's asks of a stored game, from its recorded decisions. */
export const asksOf = (decisions: readonly { seq_before: number; player_id: string; window: string }[]): Ask[] =>
  decisions.map((d) => ({ seq: d.seq_before, player_id: d.player_id, window: d.window as Window }));

/**
 * One ended game's tally from its full log and asks (read from the store when not given), cached.
 *
 * @example await storedTally(store, g) // [{ agent: 'balanced', kind: 'all', sum: 0.21, decisions: 180 }, …]
 */
export async function storedTally(store: EventStore, g: Pick<TournamentGameRecord, 'game_id' | 'seats'>, read?: { events: readonly GameEvent[]; asks: readonly Ask[] }): Promise<GameWpaTally> {
  const { events, asks } = read ?? { events: await readLog(store, g.game_id), asks: asksOf(await readDecisions(store, g.game_id)) };
  const key = `${g.game_id}\u0000${events.length}\u0000${events.at(-1)?.ts ?? ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const tally = wpaTally(events, g.seats, asks);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, tally);
  return tally;
}

/** The tallies of ended games by schedule key (what `withWpa` reads). */
export async function storedTallies(store: EventStore, games: readonly Pick<TournamentGameRecord, 'game_id' | 'seats' | 'key' | 'state'>[]): Promise<Map<string, GameWpaTally>> {
  const out = new Map<string, GameWpaTally>();
  for (const g of games) if (g.state === 'ended') out.set(g.key, await storedTally(store, g));
  return out;
}

/**
 * A stored tournament's standings with the WPA skill figure beside the rating (withWpa), over the
 * ended games its ratings count. For callers that may see ended games whole (the CLI on its own
 * store; admins and researchers on the server).
 *
 * @example formatStandings(await standingsWithWpa(store, t, out.standings))
 */
export async function standingsWithWpa(store: EventStore, t: Pick<TournamentRecord, 'tournament_id' | 'seed' | 'config'>, table: readonly Standing[], resamples?: number): Promise<Standing[]> {
  const games = await store.tournaments.games(t.tournament_id);
  const config = t.config as Pick<TournamentConfig, 'entrants'> & Partial<Pick<TournamentConfig, 'rate_degraded'>>;
  const results = ratedResultsOf(games, config.rate_degraded === true);
  const keys = new Set(results.map((r) => r.key));
  return withWpa(table, { entrants: config.entrants, seed: t.seed }, results, await storedTallies(store, games.filter((g) => keys.has(g.key))), resamples);
}
