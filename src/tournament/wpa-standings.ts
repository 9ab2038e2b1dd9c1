import { DEFAULT_RESAMPLES } from './bootstrap.js';
import { canonical } from './fit-standings.js';
import { groupKey } from './group-bootstrap.js';
import type { GameResult, Standing } from './types.js';
import { wpaFigures, type GameWpaTally } from './wpa-figures.js';

/**
 * The standings with a skill figure beside the rating: each agent's mean choice WPA per decision
 * (`wpa`, with its 95 % interval) over the results whose tally is known (`tallies`, by result key),
 * and the decisions behind it. The bootstrap resamples whole duplicate groups with the tournament
 * seed, as the rating's intervals do (groupResamples over the results in canonical order: with a
 * tally for every result, the same draws). An agent with no measured decision gets `wpa` null.
 * Kept apart from `standings` so the ratings, the stop rule and their memo never wait for a log.
 *
 * @example withWpa(standings(config, results), config, results, tallies)[0].wpa
 */
export function withWpa(table: readonly Standing[], config: { entrants: readonly string[]; seed: number }, results: readonly GameResult[], tallies: ReadonlyMap<string, GameWpaTally>, resamples = DEFAULT_RESAMPLES): Standing[] {
  const games = canonical(results).flatMap((r) => {
    const tally = tallies.get(r.key);
    // Only the every-decision cells: the windows' would cost the bootstrap five times as much for nothing.
    return tally ? [{ group: groupKey(r.key), tally: tally.filter((c) => c.kind === 'all') }] : [];
  });
  const agents = table.map((s) => s.agent);
  const rows = new Map(wpaFigures(agents, games, config.seed, resamples).filter((r) => r.kind === 'all').map((r) => [r.agent, r]));
  return table.map((s) => ({ ...s, wpa: rows.get(s.agent)?.mean ?? null, wpa_decisions: rows.get(s.agent)?.decisions ?? 0 }));
}
