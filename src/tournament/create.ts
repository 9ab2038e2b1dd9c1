import type { EventStore, TournamentRecord } from '../store/index.js';
import { parseTournamentConfig } from './config.js';

/**
 * Validates a tournament config (see config.ts) and registers the tournament, ready for
 * runTournament. Bad input is a value (one line per issue), never a throw.
 *
 * @example const r = await createTournament(store, { format: 'swiss', entrants, seats: 4 }); if (r.ok) await runTournament(r.tournament.tournament_id, { store })
 */
export async function createTournament(
  store: EventStore,
  input: unknown,
  /** `options`: stored with the tournament (how its games are run: a CLI's RunSettings, a server's pace…). */
  options: { tournament_id?: string; name?: string; options?: Record<string, unknown> } = {},
): Promise<{ ok: true; tournament: TournamentRecord } | { ok: false; message: string }> {
  const parsed = parseTournamentConfig(input);
  if (!parsed.ok) return parsed;
  const tournament = await store.tournaments.create({ ...options, config: parsed.config });
  return { ok: true, tournament };
}
