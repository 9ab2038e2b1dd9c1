import { z } from 'zod';
import { parseAgentSpec } from '../agents/seat/agent-spec.js';
import { unpricedEntrants } from '../agents/seat/unpriced.js';
import { RulesConfig, StrictRulesConfig, type RulesInput } from '../game/index.js';
import { Seed } from '../protocol/index.js';
import { DEFAULT_SEPARATION_MIN_GAMES } from './separation.js';
import { FORMATS, type TournamentConfig } from './types.js';

/** Seeds per table when none is given: two deals, each in every rotation. */
export const DEFAULT_SEEDS = 2;
const MAX_SEEDS = 10_000;
const MAX_GAMES = 10_000_000;

/** Swiss rounds when none is given: ⌈log₂ n⌉ + 1, at least 3 (enough to sort a field of n twice over). */
export const defaultSwissRounds = (entrants: number): number => Math.max(3, Math.ceil(Math.log2(Math.max(2, entrants))) + 1);

/** Checks one agent spec; the default resolves it with parseAgentSpec (which loads skills and providers). */
export type AgentCheck = (spec: string) => { ok: true } | { ok: false; message: string };
const defaultCheck: AgentCheck = (spec) => parseAgentSpec(spec);

const int = (what = 'must be a whole number') => z.number().int(what);

const StopRule = z.union([
  z.boolean(),
  z.object({
    top_k: int().min(1, 'must be at least 1').default(1),
    min_games: int().min(1, 'must be at least 1').default(DEFAULT_SEPARATION_MIN_GAMES),
  }),
]);

const fields = {
  format: z.enum(FORMATS, { error: () => `must be one of ${FORMATS.join(', ')}` }),
  entrants: z.array(z.string().trim().min(1, 'names an empty agent')).min(2, 'needs at least 2 entrants'),
  seats: int().min(2, 'must be at least 2'),
  seeds: int().min(1, 'must be at least 1').max(MAX_SEEDS, `must be at most ${MAX_SEEDS}`).default(DEFAULT_SEEDS),
  seed: Seed.default(0),
  max_games: int().min(1, 'must be at least 1').max(MAX_GAMES, `must be at most ${MAX_GAMES}`).nullable().default(null),
  duplicate: z.boolean().default(true),
  stop_when_separated: StopRule.nullable().default(null),
  rounds: int().min(1, 'must be at least 1').max(1000, 'must be at most 1000').nullable().default(null),
  challenger: z.string().nullable().default(null),
  compact: z.boolean().default(false),
  /** Rate degraded games too (a seat ran out of budget: src/runner/degraded.ts); off, they count for no one. */
  rate_degraded: z.boolean().default(false),
  /** Lets LLM entrants with no price play (their cost is then reported as unknown, never $0). */
  allow_unpriced: z.boolean().optional(),
  // Top-level typos in rules are errors, not silently dropped keys (as in simulate).
  rules: z.record(z.string(), z.unknown()).default({}),
};

/** What a caller may send (every field but format, entrants and seats has a default). */
export type TournamentConfigInput = z.input<z.ZodObject<typeof fields>>;

/**
 * The tournament config schema: defaults filled, cross-field rules checked, issues carrying the
 * field's name as their path (so the CLI and REST can name the flag or key).
 *
 * - entrants: unique, at least `seats` of them, each a valid agent spec;
 * - seats: within the rules' min_seats..max_seats;
 * - rules: the engine's RulesConfig (strict);
 * - gauntlet: `challenger` defaults to the first entrant and must be one of them; other formats take none;
 * - swiss: `rounds` defaults to {@link defaultSwissRounds}; other formats take none;
 * - max_games: at least one duplicate group (`seats` games when `duplicate`), since groups are never cut;
 * - stop_when_separated: `true` means `{ top_k: 1 }`; top_k must leave at least one entrant below it.
 */
export const tournamentConfigSchema = (check: AgentCheck = defaultCheck) =>
  z
    .object(fields)
    .strict()
    .transform((o, ctx): TournamentConfig => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      const rules = StrictRulesConfig.safeParse(o.rules);
      if (!rules.success) for (const i of rules.error.issues) ctx.addIssue({ code: 'custom', path: ['rules', ...i.path.map(String)], message: i.message });
      const { min_seats, max_seats } = rules.success ? rules.data : RulesConfig.parse({});
      if (o.seats < min_seats || o.seats > max_seats) issue('seats', `must be between ${min_seats} and ${max_seats}, got ${o.seats}`);
      const seen = new Set<string>();
      for (const e of o.entrants) {
        if (seen.has(e)) issue('entrants', `names "${e}" twice (each entrant plays once per table)`);
        seen.add(e);
      }
      if (o.entrants.length < o.seats) issue('entrants', `needs at least ${o.seats} entrants for ${o.seats} seats, got ${o.entrants.length}`);
      for (const e of seen) {
        const r = check(e);
        if (!r.ok) issue('entrants', r.message);
      }
      if (!o.allow_unpriced) for (const u of unpricedEntrants([...seen])) issue('entrants', u.message);
      let challenger: string | null = null;
      if (o.format === 'gauntlet') {
        challenger = o.challenger ?? o.entrants[0]!;
        if (!seen.has(challenger)) issue('challenger', `"${challenger}" is not one of the entrants`);
      } else if (o.challenger !== null) issue('challenger', 'only a gauntlet has a challenger');
      let rounds: number | null = null;
      if (o.format === 'swiss') rounds = o.rounds ?? defaultSwissRounds(o.entrants.length);
      else if (o.rounds !== null) issue('rounds', 'only swiss plays rounds (round-robin and gauntlet play every table over `seeds`)');
      const group = o.duplicate ? o.seats : 1;
      if (o.max_games !== null && o.max_games < group) issue('max_games', `must be at least ${group}: one seed in every seat rotation (duplicate groups are never cut)`);
      const stop = o.stop_when_separated === true ? { top_k: 1, min_games: DEFAULT_SEPARATION_MIN_GAMES } : o.stop_when_separated || null;
      if (stop && stop.top_k >= o.entrants.length) issue('stop_when_separated', `top_k must be below the entrant count (${o.entrants.length}), got ${stop.top_k}`);
      return { ...o, challenger, rounds, stop_when_separated: stop };
    });

/** The default schema (agent specs resolved with parseAgentSpec). */
export const TournamentConfigSchema = tournamentConfigSchema();

/**
 * Parses a tournament config; errors as a value with one line per issue ("entrants: names …").
 *
 * @example parseTournamentConfig({ format: 'round-robin', entrants: ['random', 'balanced', 'turtle'], seats: 2 })
 */
export function parseTournamentConfig(input: unknown, check?: AgentCheck): { ok: true; config: TournamentConfig } | { ok: false; message: string } {
  const r = (check ? tournamentConfigSchema(check) : TournamentConfigSchema).safeParse(input);
  if (r.success) return { ok: true, config: r.data };
  return { ok: false, message: r.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('\n') };
}

/** The engine rules every game of the tournament is played with (compact windows when asked). */
export function gameRules(config: TournamentConfig): RulesInput {
  return config.compact ? { ...config.rules, windows: 'compact' } : config.rules;
}
