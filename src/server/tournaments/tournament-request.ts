import { capRefusal } from '../../agents/seat/unpriced.js';
import { z } from 'zod';
import { humansRefused } from '../games/seat-tokens.js';
import { Seed } from '../../protocol/index.js';
import { TournamentConfigSchema } from '../../tournament/config.js';
import { TOURNAMENT_STATUSES } from '../../store/index.js';
import { MAX_COST_USD } from '../../tournament/cost-limit.js';
import { REPORT_TABLES } from '../../tournament/report-csv.js';
import type { TournamentConfig } from '../../tournament/types.js';
import { MAX_PACE_MS, MAX_SPECTATOR_DELAY_MS } from '../games/game-request.js';
import { refineSpectators, spectatorFields, type SpectatorRequest } from '../games/broadcast-mode.js';

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
  max_cost_usd: z.number('must be a number of US dollars').min(0, 'must not be negative').max(MAX_COST_USD, `must be at most ${MAX_COST_USD}`).optional(),
  /** Every game of the tournament is shown in this mode (see broadcast-mode.ts). */
  ...spectatorFields,
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
  /** Stop starting games once the tournament's recorded provider cost reaches this (USD). */
  max_cost_usd?: number | undefined;
  preflight?: boolean | undefined;
} & SpectatorRequest;

/**
 * `POST /tournaments`: the core's TournamentConfig (format, entrants, seats, seeds, max_games,
 * duplicate, stop_when_separated, rounds, challenger, compact, rules) plus how the server shows
 * its games (name, pace_ms, spectator_delay_ms, spectators, broadcast_unsafe). Strict, so a misspelt key is a 400 naming it;
 * every cross-field rule is the core's own (config.ts), so REST and the CLI refuse the same things.
 *
 * @example CreateTournamentBody.parse({ format: 'round-robin', entrants: ['random', 'balanced', 'turtle'], seats: 2 })
 */
export const CreateTournamentBody = TournamentConfigSchema.in.extend(serverFields).transform((body, ctx): TournamentRequest => {
  const { name, seed, pace_ms, spectator_delay_ms, spectators, broadcast_unsafe, max_cost_usd, preflight, ...rest } = body;
  // The core checks the config as a whole; the seed only matters for its range, checked above.
  const parsed = TournamentConfigSchema.safeParse(rest);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  }
  const { seed: _default, ...config } = parsed.data;
  const humans = humansRefused(config.entrants, 'a tournament');
  if (humans) {
    ctx.addIssue({ code: 'custom', path: ['entrants'], message: humans });
    return z.NEVER;
  }
  // An entrant that could act on a broadcast sits in some of its games: the choice holds for all of them.
  const before = ctx.issues.length;
  refineSpectators({ spectators, broadcast_unsafe }, config.entrants, ctx, 'entrants');
  if (ctx.issues.length > before) return z.NEVER;
  // A cap must be able to price every call it bounds (allow_unpriced does not lift this).
  const uncapped = typeof max_cost_usd === 'number' ? capRefusal(config.entrants, { optIn: 'allow_unpriced', cap: 'max_cost_usd' }) : null;
  if (uncapped) {
    ctx.addIssue({ code: 'custom', path: ['max_cost_usd'], message: uncapped });
    return z.NEVER;
  }
  return { name, config, seed, pace_ms, spectator_delay_ms, spectators, broadcast_unsafe, preflight, ...(max_cost_usd === undefined ? {} : { max_cost_usd }) };
});

/** `GET /tournaments?status=&limit=&cursor=` (status may repeat or be comma-separated). */
export const ListTournamentsQuery = z.strictObject({
  status: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.enum(TOURNAMENT_STATUSES)))
    .optional(),
  limit: z.coerce.number('must be a number').int('must be a whole number').min(1).max(500).optional(),
  cursor: z.string().min(1).optional(),
});
export type ListTournamentsQuery = z.output<typeof ListTournamentsQuery>;

/** `GET /tournaments/:id/report?format=json|csv&table=…` (the CSV report is one table per request). */
export const ReportQuery = z.strictObject({
  format: z.enum(['json', 'csv'], 'must be json or csv').default('json'),
  table: z
    .enum(REPORT_TABLES, `must be ${REPORT_TABLES.slice(0, -1).join(', ')} or ${REPORT_TABLES.at(-1)}`)
    .default('agents')
    .meta({ description: 'With format=csv: which table (one row per agent, ordered pair, agent × manipulation_plan, agent × emotional_intent, agent × commitment outcome, emotional intent (pooled) and target × intent for the choice shifts)' }),
});
export type ReportQuery = z.output<typeof ReportQuery>;

/** `POST /tournaments/:id/resume` body (optional): a new cost limit (null lifts the stored one). */
export const ResumeTournamentBody = z
  .strictObject({ max_cost_usd: z.number('must be a number of US dollars').min(0, 'must not be negative').max(MAX_COST_USD, `must be at most ${MAX_COST_USD}`).nullable().optional() })
  .optional();
