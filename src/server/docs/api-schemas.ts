import { z } from 'zod';
import { EVENT_TYPES, GameId, IsoTimestamp, Phase, Placement, PlayerPrivateState, RngState, Visibility, WorldState } from '../../protocol/index.js';
import { GameStatus, SeatRecord } from '../../store/index.js';

/**
 * The response shapes the OpenAPI document shows. Requests are documented from the schemas the
 * controllers parse with; responses are typed in TypeScript by their services, so their JSON shape
 * is restated here from the protocol's own schemas wherever one exists.
 */

export const ErrorBody = z
  .object({
    statusCode: z.int().meta({ example: 404 }),
    error: z.string().meta({ example: 'Not Found' }),
    message: z.string().meta({ example: 'no game game_0a1b2c3d4e5f (GET /games lists them)' }),
    code: z.string().optional().meta({ description: 'On a seat’s 422/409: the engine’s rejection code (e.g. action/…) or seat/nothing_pending, seat/stale_request' }),
  })
  .meta({ description: 'Every 4xx/5xx answer. A 500 says only that the server logged the details.' });

export const Health = z.object({
  status: z.enum(['ok', 'degraded']),
  rules_version: z.string(),
  backend: z.enum(['pglite', 'postgres']),
  uptime_s: z.int(),
  /** Only with REDIS_URL (docs/scale-out.md): Redis, the game queue's counts, the workers. */
  scale: z
    .object({
      redis: z.union([z.object({ ok: z.literal(true), latency_ms: z.number() }), z.object({ ok: z.literal(false), error: z.string() })]),
      queue: z.object({ waiting: z.int(), active: z.int(), delayed: z.int(), failed: z.int(), completed: z.int() }).nullable(),
      workers: z.int().nullable(),
    })
    .optional(),
});

/** A game's record as GET /games and GET /games/:id return it. */
export const GameView = z.object({
  game_id: GameId,
  seed: z.int().nullable().meta({ description: 'null until the game has ended (as the caller sees it), or while the tournament it belongs to runs, except for admins' }),
  seed_hidden: z.boolean(),
  config: z.record(z.string(), z.unknown()).meta({ description: 'The engine configuration (seats, rules overrides)' }),
  rules_version: z.string(),
  status: GameStatus.meta({ description: 'As of the caller’s head: a delayed spectator sees `running` until the end is a delay old' }),
  seats: z.array(SeatRecord),
  last_seq: z.int().meta({ description: 'The head this caller may see (a delayed spectator’s lags behind the log)' }),
  last_hash: z
    .string()
    .nullable()
    .meta({ description: 'Head of the sha256 chain over the unredacted events: admins, and researchers once the game is over; null for everyone else (it would let them test guesses at hidden data; see docs/security.md)' }),
  placements: z.array(Placement).nullable().meta({ description: 'null until the caller may see the end' }),
  options: z.record(z.string(), z.unknown()).meta({ description: '{pace_ms, spectator_delay_ms, demo, spectators: public|broadcast, broadcast_held, fork?}; a fork’s `fork` is {parent_game_id, seq, parent_hash, secret?}: its `parent_hash` (over unredacted events) shown to whom `last_hash` is, its `secret` (what its hidden state was reseeded from at the fork point; absent when it kept the parent’s deck) to whom the seed is — admins, and everyone once the fork has ended' }),
  run_failures: z.int().min(0).meta({ description: 'Runner attempts in a row that failed before committing a step; at 3 the game is `failed`' }),
  failure_reason: z.string().nullable().meta({ description: 'Why the last failed runner attempt failed (why a `failed` game stopped), with its whole cause chain; null when none has' }),
  created_at: IsoTimestamp,
  updated_at: IsoTimestamp.meta({ description: 'The last change the caller may see: for a delayed spectator, the ts of its head event' }),
  ended_at: IsoTimestamp.nullable().meta({ description: 'null until the caller may see the end' }),
});

/** A fork as its parent's GET /games/:id lists it. */
export const ForkEntry = z.object({
  game_id: GameId,
  seq: z.int().min(1).meta({ description: 'The fork point: the fork’s events 1..seq are the parent’s' }),
  round: z.int().nullable().meta({ description: 'The round of the event at the fork point' }),
  same_deck: z.boolean().meta({ description: 'True when the fork kept the parent’s deck and PRNG (the same draws); false when it reseeded them from a secret (new draws). Non-admins are not shown same-deck forks that have not ended' }),
  reseed: z.int().optional().meta({ description: 'The secret the fork reseeded from: admins, and everyone once the fork has ended (like a seed)' }),
  status: GameStatus.meta({ description: 'As the caller sees the fork (its own hold-back applied)' }),
  seats: z.array(SeatRecord).meta({ description: 'The fork’s agents (display names are the parent’s)' }),
  placements: z.array(Placement).nullable().meta({ description: 'null until the caller may see the fork’s end' }),
  created_at: IsoTimestamp,
});

/** GET /games/:id: the record, its lineage, and seat health for admins and researchers. */
export const GameDetail = GameView.extend({
  parent: z
    .object({
      game_id: GameId,
      seq: z.int().min(1),
      round: z.int().nullable(),
      same_deck: z.boolean().meta({ description: 'Whether this fork kept the parent’s deck and PRNG' }),
      reseed: z.int().optional().meta({ description: 'This fork’s secret: admins, and everyone once it has ended' }),
      status: GameStatus.nullable().meta({ description: 'The parent’s status as the caller sees it; null when it is no longer stored (or is a fork hidden from the caller)' }),
    })
    .nullable()
    .meta({ description: 'For a fork: the game it branched from, where (seq and round) and whether it draws anew; null for any other game' }),
  forks: z.array(ForkEntry).meta({ description: 'The games forked from this one, oldest first, the first 50; only forks branching at or before the head the caller sees of this game, and for non-admins no same-deck fork that has not ended' }),
  fork_count: z.int().min(0).meta({ description: 'How many forks the caller may know of (`forks` lists the first 50)' }),
  seat_health: z.array(z.record(z.string(), z.unknown())).optional().meta({ description: 'Admins and researchers: each seat’s decisions (first time, repaired, fell back by reason), provider calls by outcome, tokens, cost (null when the model has no price: unknown), wire latency p50/p95/max (wire_ms, per HTTP attempt) and time queued in Tiltyard before sending (queued_ms)' }),
});

export const GamesPage = z.object({ games: z.array(GameView), next_cursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null on the last' }) });

/** An event after projection: payload keys hidden from the viewer are removed and listed in `redacted`. */
export const EventView = z.object({
  schema_version: z.string(),
  event_id: z.string(),
  game_id: GameId,
  seq: z.int().min(1),
  turn: z.int().min(0),
  phase: Phase,
  type: z.enum(EVENT_TYPES),
  ts: IsoTimestamp,
  payload: z.record(z.string(), z.unknown()).meta({ description: 'The event type’s payload (docs/rules.md), minus what the viewer may not see' }),
  visibility: Visibility.meta({ description: 'Which payload keys are private; `to` only ever names the viewer’s own seat' }),
  rng: RngState.optional().meta({ description: 'PRNG state after the event: admins only' }),
  redacted: z.array(z.string()).optional().meta({ description: 'Payload keys removed for this viewer' }),
});

export const EventsPage = z.object({
  game_id: GameId,
  events: z.array(EventView),
  last_seq: z.int().meta({ description: 'The head this caller may see (a delayed spectator’s lags behind the log)' }),
  next_after: z.int().meta({ description: 'Pass as `after` for the next page' }),
});

export const StateView = z.object({
  world: WorldState,
  private: z.array(PlayerPrivateState).meta({ description: 'A seat view: that seat’s own; admins, the broadcast view (and researchers once the game is over): every seat’s' }),
  raw: z.record(z.string(), z.unknown()).optional().meta({ description: 'Admins only: the raw engine state, PRNG included' }),
});

export const SnapshotView = z.object({
  game_id: GameId,
  seq: z.int().min(0),
  last_seq: z.int().meta({ description: 'The head this caller may see' }),
  state_hash: z.string().meta({ description: 'sha256 (hex) of the RFC 8785 canonical JSON of `state`, as received (the caller’s own projection, never the full state): recompute it to detect drift' }),
  state: StateView,
});

/** GET /games/:id/win-probability (src/eval/win-report.ts). */
export const WinProbability = z.object({
  game_id: GameId,
  model: z.string().meta({ description: 'The model’s version (src/eval/winprob-model.ts)' }),
  view: z.string().meta({ description: 'The view the curve was folded from: spectator, broadcast, researcher, admin or plr_N' }),
  form: z.enum(['public', 'omniscient']).meta({ description: 'public: read off the public table alone (anonymous callers of a public game, researchers while it runs, seat views); omniscient: every seat’s hand and feelings too (admins, the broadcast view, researchers once the game is over)' }),
  last_seq: z.int().meta({ description: 'The head this caller may see: no point lies past it' }),
  points: z
    .array(
      z.object({
        seq: z.int().min(1),
        round: z.int().min(0),
        p: z.record(z.string(), z.number().min(0).max(1)).meta({ description: 'Each seat’s chance to win after event `seq`, by player id, summing to 1 (seats out: 0; after the end the winners share 1)' }),
      }),
    )
    .meta({ description: 'In seq order, one where some seat’s chance moved (and the last event): a step line' }),
});

export const RunReport = z.object({
  game_id: GameId,
  scenario: z.literal('verify'),
  start_ts: IsoTimestamp,
  end_ts: IsoTimestamp,
  events_checked: z.int(),
  assertions: z.array(z.object({ name: z.string(), status: z.enum(['pass', 'fail']), details: z.string() })),
  artifacts_path: z.string().meta({ description: 'Where this report can be fetched again (nothing is written on the server)' }),
});

export const GameAnalytics = z.object({
  game_id: GameId,
  view: z.enum(['researcher', 'admin']),
  private_details: z.boolean().meta({ description: 'Whether hidden details went into the figures: admins always, researchers once the game is over' }),
  status: GameStatus,
  figures: z.record(z.string(), z.unknown()).meta({ description: 'The figures `tiltyard simulate` reports, for this one game: seat and agent results, card type shares, manipulation and slip rates, rejections by code, emotion coupling. A figure whose inputs this view hides is null (unknown), never a zero' }),
  unknown_figures: z.array(z.string()).meta({ description: 'The figures this view cannot know (null in `figures`), e.g. cardTypeShare, byAgent.*.attacks, emotionCoupling for a researcher while the game runs; empty once private_details' }),
  withheld_figures: z
    .array(z.object({ figure: z.string().meta({ example: 'depth.skillShare' }), reason: z.string() }))
    .meta({ description: 'Figures that compare agents over many games (depth.skillShare, depth.winRateSpread): null in `figures` for one game, each with why. A tournament report gives them over its games' }),
});

export const AgentCatalog = z.object({
  builtins: z.array(z.object({ name: z.string(), spec: z.string(), version: z.number().int().meta({ description: 'The built-in’s behaviour version: bumped whenever its play changes; stored games record it per seat (`seats[].agent_version`)' }) })),
  skills: z.array(
    z.object({
      name: z.string(),
      spec: z.string().meta({ description: 'What to put in POST /games `agents`, e.g. skill:python-example' }),
      description: z.string(),
      kind: z.enum(['builtin', 'command', 'plan', 'llm']),
      fallback: z.string().meta({ description: 'The built-in it degrades to when it fails' }),
    }),
  ),
  problems: z.array(z.object({ folder: z.string(), message: z.string() })).meta({ description: 'Skill folders that do not load, with what to fix' }),
  providers: z.array(z.object({ name: z.string(), kind: z.enum(['openai', 'anthropic', 'mock']), spec: z.string(), default_model: z.string().nullable() })),
  provider_problem: z.string().nullable(),
});

/** GET /stats: where games run and how loaded that is (see docs/scale-out.md). */
export const Stats = z.object({
  mode: z.enum(['in-process', 'workers']),
  active_games: z.int().nullable(),
  queue_depth: z.int().nullable(),
  workers: z.int().nullable(),
  node: z.object({ running: z.int(), queued: z.int() }),
  redis_ok: z.boolean().nullable(),
});

export const Traces = z.object({
  game_id: GameId,
  traces: z.array(
    z.object({
      player_id: z.string(),
      turn: z.int(),
      window: z.string(),
      request_id: z.string(),
      entries: z.record(z.string(), z.unknown()).meta({ description: 'The decision’s trace: agent, ok, failure, fallback, latency_ms, retries, validation (the repairs asked for), memory after it, and its stages (plan, reason, act…) with their metrics (tokens, latency)' }),
      created_at: z.string(),
    }),
  ),
});

/** One human seat's ticket in POST /games's answer: the only time its token is given out. */
export const HumanSeatTicket = z.object({
  player_id: z.string().meta({ example: 'plr_2' }),
  token: z.string().meta({ description: 'The seat’s capability (256 random bits, base64url); the server keeps only its sha256. Send it as `Authorization: Bearer <token>` to the seat routes, /events and /snapshot' }),
  url: z.string().meta({ description: 'The seat page, token in the fragment (never sent to a server, never logged)', example: '/seat/game_0a1b2c3d4e5f/plr_2#token=…' }),
});

/** POST /games's answer: the game, and a ticket per human seat. */
export const CreatedGame = GameView.extend({ human_seats: z.array(HumanSeatTicket).meta({ description: 'One per `human` / `human:<name>` seat, in seat order; empty when there is none' }) });

/** GET …/seats/{player_id}/request: the request exactly as an agent process receives it on stdin. */
export const SeatRequest = z
  .object({
    requestId: z.string(),
    tool: z.literal('human'),
    operation: z.enum(['intent', 'talk', 'action', 'reaction', 'reflect']).meta({ description: 'The window: which decision schema the answer follows (docs/agents.md)' }),
    input: z.record(z.string(), z.unknown()).meta({ description: 'The TurnPlanRequest: this seat’s private view, the public table, legal_actions, constraints (docs/agents.md)' }),
  })
  .meta({ description: 'The pending decision request of a human seat' });

/** POST …/seats/{player_id}/decision's answer. */
export const SeatDecisionAccepted = z.object({ accepted: z.literal(true), requestId: z.string() });
