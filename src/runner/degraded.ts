import { z } from 'zod';
import type { SeatDecision } from '../agents/seat/types.js';

/**
 * Why a game is not a measure of its agents: a seat ran out of its per-game or per-decision budget,
 * so from `round` on the engine's fallback played for it. Stored once, the first time, in the game's
 * options (`options.degraded`); such a game is left out of tournament ratings unless the tournament
 * says `rate_degraded`, and the CLI exits with EXIT.degraded (docs/providers.md "Degraded games").
 */
export const DegradedSchema = z.object({
  /** The failure code that degraded it (llm/budget). */
  code: z.string(),
  /** What ran out, in the seat's words: "game budget exhausted (cost_usd)". */
  cause: z.string(),
  player_id: z.string(),
  agent: z.string(),
  /** The round (the game's turn) the first forced decision fell in. */
  round: z.number().int(),
});
export type Degraded = z.infer<typeof DegradedSchema>;

/** Failure codes that degrade a game: the seat could still answer, but was not allowed to. */
const DEGRADING: ReadonlySet<string> = new Set(['llm/budget']);

/** The degradation one answer starts, or null when it is not one. */
export function degradedBy(answer: SeatDecision): Degraded | null {
  const t = answer.trace;
  if (!t?.failure || !DEGRADING.has(t.failure.code)) return null;
  return { code: t.failure.code, cause: t.failure.message, player_id: t.player_id, agent: t.agent, round: t.turn };
}

/** A stored game's degradation (its options' `degraded`), or null; a value that does not parse reads as none. */
export function degradedOf(options: Readonly<Record<string, unknown>>): Degraded | null {
  const parsed = DegradedSchema.safeParse(options['degraded']);
  return parsed.success ? parsed.data : null;
}

/**
 * One line for stderr.
 *
 * @example degradedLine('game_1', d) // "game game_1 is degraded: seat plr_2 (llm:openai:gpt-4o) from round 3: game budget exhausted (cost_usd); …"
 */
export function degradedLine(gameId: string, d: Degraded): string {
  return `game ${gameId} is degraded: seat ${d.player_id} (${d.agent}) from round ${d.round}: ${d.cause}; the engine's fallback played for it, so the game measures no model (left out of ratings unless --rate-degraded)`;
}
