import { z } from 'zod';
import { parseAgentSpec } from '../../agents/seat/agent-spec.js';
import { unpricedMessage, unpricedModels } from '../../agents/seat/unpriced.js';
import { ConfigError, initialState, RulesConfig, type RulesInput } from '../../game/index.js';
import { seatConfigs } from '../../runner/lineup.js';
import { Seed } from '../../protocol/index.js';
import { GAME_STATUSES } from '../../store/index.js';
import { SafeString, unsafeText } from '../safe-text.js';
import { MAX_HUMAN_TIMEOUT_MS, MAX_PACE_MS, MAX_SPECTATOR_DELAY_MS } from '../../live/game-options.js';
import { refineSpectators, spectatorFields } from './broadcast-mode.js';
import { humanSeatIds } from './seat-tokens.js';

export { MAX_PACE_MS, MAX_SPECTATOR_DELAY_MS };

const Millis = (max: number) =>
  z
    .int('must be a whole number of milliseconds')
    .min(0, 'must not be negative')
    .max(max, `must be at most ${max} ms`);

/** Keys of `input` the parsed rules do not have: typos at any depth, which zod would drop silently. */
function unknownKeys(input: unknown, parsed: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  if (typeof parsed !== 'object' || parsed === null) return [];
  return Object.entries(input).flatMap(([k, v]) =>
    Object.hasOwn(parsed, k) ? unknownKeys(v, (parsed as Record<string, unknown>)[k], [...path, k]) : [[...path, k]],
  );
}

/**
 * `POST /games`. Every field is checked here, so a 400 names it: each agent resolves (built-in,
 * skill:<folder>, llm:<provider>), rules overrides are the engine's RulesConfig (typos are errors,
 * not silently dropped keys), the table is one the engine accepts with those rules, and a
 * broadcast that refuses unsafe seats names each seat that could act on it, and an LLM seat whose
 * model has no price is refused with the price to add unless `allow_unpriced` is true.
 *
 * @example CreateGameBody.parse({ agents: ['balanced', 'turtle'], pace_ms: 0 })
 */
export const CreateGameBody = z
  .strictObject({
    agents: z
      .array(SafeString.min(1, 'must name an agent'), 'must be a list of 2–6 agents, one per seat')
      .min(2, 'needs at least 2 agents (one per seat)').max(6, 'takes at most 6 agents (one per seat)'),
    /** Without one the server draws an unguessable seed: hidden information depends on it. */
    seed: Seed.optional(),
    rules: z.record(z.string(), z.unknown(), 'must be an object of rules overrides').optional(),
    spectator_delay_ms: Millis(MAX_SPECTATOR_DELAY_MS).optional(),
    pace_ms: Millis(MAX_PACE_MS).optional(),
    /** A human seat's time for one decision (default 120000); past it the seat's default is taken. */
    human_timeout_ms: Millis(MAX_HUMAN_TIMEOUT_MS).min(1, 'must be at least 1 ms').optional(),
    ...spectatorFields,
    /** false: start without checking the LLM seats' providers (see docs/providers.md, "Preflight"). */
    preflight: z.boolean('must be true or false').optional(),
    /** true: play LLM seats whose model has no price; their cost is then reported as unknown (null), never $0. */
    allow_unpriced: z.boolean('must be true or false').optional(),
  })
  .superRefine((body, ctx) => {
    let agentsOk = true;
    body.agents.forEach((spec, i) => {
      // Already an issue of its own; a NUL must never reach the skill loader's file system calls.
      if (unsafeText(spec)) return void (agentsOk = false);
      const r = parseAgentSpec(spec);
      if (!r.ok) {
        agentsOk = false;
        ctx.addIssue({ code: 'custom', path: ['agents', i], message: r.message });
        return;
      }
      // A model with no price would be recorded as $0: refused unless the caller opts in.
      const unpriced = body.allow_unpriced ? [] : unpricedModels(spec);
      if (unpriced.length) ctx.addIssue({ code: 'custom', path: ['agents', i], message: unpricedMessage(spec, unpriced) });
    });
    const rules = RulesConfig.safeParse(body.rules ?? {});
    if (!rules.success) for (const issue of rules.error.issues) ctx.addIssue({ ...issue, path: ['rules', ...issue.path] });
    else for (const path of unknownKeys(body.rules, rules.data)) ctx.addIssue({ code: 'custom', path: ['rules', ...path], message: 'is not a rule (a typo?)' });
    if (!agentsOk || !rules.success || body.agents.length < 2 || body.agents.length > 6) return;
    refineSpectators(body, body.agents, ctx, 'agents');
    if (body.human_timeout_ms !== undefined && humanSeatIds(body.agents).length === 0) ctx.addIssue({ code: 'custom', path: ['human_timeout_ms'], message: 'only applies to a game with a human seat ("human" or "human:<name>" in agents)' });
    // The engine's own check of the whole table (seat count against min/max_seats, names).
    try {
      initialState({ seats: seatConfigs(body.agents), rules: body.rules ?? {} }, 0);
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e;
      ctx.addIssue({ code: 'custom', path: ['agents'], message: e.message });
    }
  });
export type CreateGameBody = z.output<typeof CreateGameBody>;

/** A validated request for a game, as GameService.create takes it. */
export type GameRequest = Omit<CreateGameBody, 'rules'> & { rules?: RulesInput };

const Status = z.enum(GAME_STATUSES);

/** The most games one page of `GET /games` holds. */
export const MAX_LIST_LIMIT = 500;
const LIMIT = (issue: { input?: unknown }) =>
  `must be a whole number from 1 to ${MAX_LIST_LIMIT} (games per page), got ${JSON.stringify(issue.input)}`;

/** The longest `agent` or `tournament` value `GET /games` takes (names and ids are far shorter). */
export const MAX_FILTER_LENGTH = 200;
const FilterText = (what: string) =>
  SafeString.min(1, `must name ${what}`).max(MAX_FILTER_LENGTH, `must be at most ${MAX_FILTER_LENGTH} characters`);

/**
 * `GET /games?status=running,created&agent=balanced&tournament=none&limit=20&cursor=…`: each
 * parameter at most once (the request guard refuses repeats and brackets), status a
 * comma-separated list; `agent` a seat's agent (as POST /games named it: `balanced`,
 * `skill:<folder>`…); `tournament` a tournament id, or `none` for games outside any tournament
 * (the lobby lists those, and each tournament's games under it).
 */
export const ListGamesQuery = z.strictObject({
  status: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(Status))
    .optional(),
  limit: z.coerce
    .number({ error: LIMIT })
    .int({ error: LIMIT })
    .min(1, { error: LIMIT })
    .max(MAX_LIST_LIMIT, { error: LIMIT })
    .optional(),
  cursor: z.string().min(1).max(MAX_FILTER_LENGTH * 2, 'is not a cursor GET /games gave out').optional(),
  agent: FilterText('an agent').optional().meta({ description: 'Only games with a seat of this agent (as POST /games named it, e.g. balanced or skill:<folder>)' }),
  tournament: FilterText('a tournament id or none').optional().meta({ description: 'Only the games of this tournament; `none`: only games outside every tournament' }),
});
export type ListGamesQuery = z.output<typeof ListGamesQuery>;
