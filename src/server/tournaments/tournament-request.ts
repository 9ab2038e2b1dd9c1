import { z } from 'zod';
import { Seed } from '../../protocol/index.js';
import { TournamentConfigSchema } from '../../tournament/config.js';
import type { TournamentConfig } from '../../tournament/types.js';
import { MAX_PACE_MS, MAX_SPECTATOR_DELAY_MS } from '../games/game-request.js';

const Millis = (max: number) =>
  z
    .int('must be a whole number of milliseconds')
    .min(0, 'must not be negative')
    .max(max, `must be at most ${max} ms`);

/** What the server adds to the core's config: how its games are shown, not what they are. */
const serverFields = {
  name: z.string().trim().min(1, 'must not be empty').max(120, 'must be at most 120 characters').optional(),
  /** Without one the server draws an unguessable seed: every game's deal derives from it. */
  seed: Seed.optional(),
  pace_ms: Millis(MAX_PACE_MS).optional(),
  spectator_delay_ms: Millis(MAX_SPECTATOR_DELAY_MS).optional(),
  /** false: start without checking the LLM entrants' providers (docs/providers.md, "Preflight"). */
  preflight: z.boolean('must be true or false').optional(),
};

/** A validated request for a tournament, as TournamentsService.create takes it. */
export type TournamentRequest = {
  name?: string | undefined;
  /** The core config; its `seed` is the caller's, or undefined for a fresh one. */
  config: Omit<TournamentConfig, 'seed'>;
  seed: number | undefined;
  pace_ms: number | undefined;
  spectator_delay_ms: number | undefined;
  preflight?: boolean | undefined;
};

/**
 * `POST /tournaments`: the core's TournamentConfig (format, entrants, seats, seeds, max_games,
 * duplicate, stop_when_separated, rounds, challenger, compact, rules) plus how the server shows
 * its games (name, pace_ms, spectator_delay_ms). Strict, so a misspelt key is a 400 naming it;
 * every cross-field rule is the core's own (config.ts), so REST and the CLI refuse the same things.
 *
 * @example CreateTournamentBody.parse({ format: 'round-robin', entrants: ['random', 'balanced', 'turtle'], seats: 2 })
 */
export const CreateTournamentBody = TournamentConfigSchema.in.extend(serverFields).transform((body, ctx): TournamentRequest => {
  const { name, seed, pace_ms, spectator_delay_ms, preflight, ...rest } = body;
  // The core checks the config as a whole; the seed only matters for its range, checked above.
  const parsed = TournamentConfigSchema.safeParse(rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  const { seed: _default, ...config } = parsed.data;
  return { name, config, seed, pace_ms, spectator_delay_ms, preflight };
});

/** `GET /tournaments?status=&limit=&cursor=` (status may repeat or be comma-separated). */
export const ListTournamentsQuery = z.strictObject({
  status: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(['created', 'running', 'ended', 'aborted'])))
    .optional(),
  limit: z.coerce.number('must be a number').int('must be a whole number').min(1).max(500).optional(),
  cursor: z.string().min(1).optional(),
});
export type ListTournamentsQuery = z.output<typeof ListTournamentsQuery>;

/** `GET /tournaments/:id/report?format=json|csv&table=…` (the CSV report is one table per request). */
export const ReportQuery = z.strictObject({
  format: z.enum(['json', 'csv'], 'must be json or csv').default('json'),
  table: z
    .enum(['agents', 'pairs', 'plans', 'intents', 'ledger'], 'must be agents, pairs, plans, intents or ledger')
    .default('agents')
    .meta({ description: 'With format=csv: which table (one row per agent, ordered pair, agent × manipulation_plan, agent × emotional_intent, agent × commitment outcome)' }),
});
export type ReportQuery = z.output<typeof ReportQuery>;
