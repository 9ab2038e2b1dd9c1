import type { DealRecord } from '../store/index.js';
import { isDeterministicSpec } from '../agents/seat/agent-spec.js';

/**
 * The suspension rule: an entrant is suspended once `BAD_OF_LAST.bad` of its last
 * `BAD_OF_LAST.of` games (3 of 5) went bad on its account. A game goes bad on an entrant's account
 * when it degraded on its seat, or failed with a reason naming its seat (`plr_N`) or its spec; a
 * failure that names no seat is put on every seat that is not a built-in (built-ins are
 * deterministic code of ours, and trusted). Fewer than `of` games: judged on those it has.
 */
export const BAD_OF_LAST = { bad: 3, of: 5 } as const;

type Game = DealRecord['games'][number];

/** Why `game` went bad on `agent`'s account, or null. */
export function badFor(game: Game, agent: string): string | null {
  const seat = game.seats.indexOf(agent);
  if (seat < 0) return null;
  if (game.degraded && (game.degraded_agent === null ? !isDeterministicSpec(agent) : game.degraded_agent === agent)) return `degraded (${game.game_id})`;
  if (game.error === null) return null;
  const named = /plr_(\d+)/.exec(game.error);
  const blamed = named ? game.seats[Number(named[1]) - 1] === agent : game.error.includes(agent) || !isDeterministicSpec(agent);
  return blamed ? `failed (${game.game_id}): ${game.error}` : null;
}

/** The cause to suspend `agent` with, or null: 3 of its last 5 games went bad on its account. */
export function suspensionCause(deals: readonly DealRecord[], agent: string): string | null {
  const games = deals.flatMap((d) => d.games.filter((g) => g.seats.includes(agent)));
  const last = games.slice(-BAD_OF_LAST.of);
  const bad = last.map((g) => badFor(g, agent)).filter((b): b is string => b !== null);
  if (bad.length < BAD_OF_LAST.bad) return null;
  return `${bad.length} of its last ${last.length} games went bad (last: ${bad[bad.length - 1]})`;
}
