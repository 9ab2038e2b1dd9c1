import type { OpenAPIObject, OperationObject, ParameterObject, SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';
import { PlayerPrivateState, WorldState } from '../../protocol/index.js';
import { RULES_VERSION } from '../../game/index.js';
import { EventsQuery, ReplayQuery, SnapshotQuery, TracesQuery, WinProbabilityQuery } from '../games/game-log.schemas.js';
import { ReplayFile } from '../../view/replay-file.js';
import { CreateGameBody, ListGamesQuery } from '../games/game-request.js';
import { ForkGameBody } from '../games/fork-request.js';
import { CreateTournamentBody, ListTournamentsQuery, ReportQuery, ResumeTournamentBody } from '../tournaments/tournament-request.js';
import { SeatDecisionBody } from '../games/seat-request.js';
import { AgentCatalog, CreatedGame, SeatDecisionAccepted, SeatRequest, Traces, ErrorBody, EventsPage, EventView, GameAnalytics, GameDetail, GamesPage, GameView, Health, RunReport, Stats, SnapshotView, StateView, WinProbability } from './api-schemas.js';
import { SPECTATE_PROTOCOL } from './spectate-protocol.js';
import { TournamentAttacks, TournamentReport, TournamentsPage, TournamentView } from './tournament-schemas.js';
import { LadderView, LaddersPage } from './ladder-schemas.js';
import { CreateLadderInput as CreateLadderBody, EntrantInput as AddEntrantBody } from '../../ladder/ladder-input.js';

/** Response schemas by the name components.schemas gives them. */
const SCHEMAS = {
  Error: ErrorBody,
  Health,
  Stats,
  GameView,
  CreatedGame,
  SeatRequest,
  SeatDecisionAccepted,
  GameDetail,
  GamesPage,
  EventView,
  EventsPage,
  StateView,
  WorldState,
  PlayerPrivateState,
  SnapshotView,
  ReplayFile,
  WinProbability,
  Traces,
  RunReport,
  GameAnalytics,
  AgentCatalog,
  TournamentView,
  TournamentsPage,
  TournamentReport,
  TournamentAttacks,
  LadderView,
  LaddersPage,
};
/** Request bodies by the name components.schemas gives them (documented as the input they accept). */
const BODIES = { CreateGameBody, ForkGameBody, CreateTournamentBody, ResumeTournamentBody, SeatDecisionBody, CreateLadderBody, AddEntrantBody };
type SchemaName = keyof typeof SCHEMAS;

type Route = {
  method: 'get' | 'post';
  /** OpenAPI form: /games/{id}. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** The least role the route takes (a token is optional for spectator routes); `seat`: that human seat's token only. */
  role: 'spectator' | 'researcher' | 'admin' | 'seat';
  query?: z.ZodObject;
  body?: keyof typeof BODIES;
  ok: { status: 200 | 201 | 202; schema: SchemaName; csv?: boolean; /** Also answers 204 (no content), saying when. */ empty?: string };
  /** Error statuses beyond 401 (any route refuses an unknown token) and 500. */
  errors: number[];
};

const ERRORS: Record<number, string> = {
  400: 'A bad query or body; the message names the field',
  401: 'A token nobody configured',
  403: 'A view or route above the caller’s role, or a delayed spectator asking past the delay',
  404: 'No such game or tournament (a same-deck fork that has not ended is none, to all but admins)',
  409: 'The tournament is running on this server (resume it once it ends or stops), or it was aborted; on a seat: no decision pending, or not this requestId',
  422: 'The engine refuses this answer: `code` and `message` say why in words; the request stays pending, so send another',
  500: 'Unexpected; the server logged the details',
  503: 'The server is shutting down, or the database is unavailable',
};

/** Every HTTP route of the API, as data: one table to read, one function to render it. */
const ROUTES: Route[] = [
  { method: 'get', path: '/health', tag: 'server', summary: 'Liveness, rules version and storage backend', role: 'spectator', ok: { status: 200, schema: 'Health' }, errors: [] },
  { method: 'get', path: '/stats', tag: 'server', summary: 'Load: active games, queue depth, workers (docs/scale-out.md)', role: 'spectator', ok: { status: 200, schema: 'Stats' }, errors: [] },
  {
    method: 'post',
    path: '/games',
    tag: 'games',
    summary: 'Start a game',
    description: 'Seats one agent per entry of `agents` (see GET /agents for what may sit), with a fresh unguessable seed unless one is given, and queues it to run. `spectators` chooses what anonymous viewers see (public, or broadcast: every seat, held back at least a full round); a broadcast with a seat that could act on it is held until the end, or refused with a 400 naming the seat (`broadcast_unsafe`). Each distinct LLM provider:model of the seats first answers one cheap preflight request; a bad URL, key or model is a 400 naming the seat, the provider and the cause (`"preflight": false` skips it; docs/providers.md).',
    role: 'admin',
    body: 'CreateGameBody',
    ok: { status: 201, schema: 'CreatedGame' },
    errors: [400, 403, 503],
  },
  {
    method: 'get',
    path: '/games/{id}/seats/{player_id}/request',
    tag: 'seats',
    summary: 'A human seat’s pending decision request',
    description:
      'With the seat’s token (from `human_seats` of POST /games): the request exactly as an agent process receives it ({requestId, tool, operation: the window, input: the TurnPlanRequest with `legal_actions`}), or 204 while the seat has nothing pending. Another seat’s token, or an admin or researcher token, is a 403. The game waits for the answer up to its `human_timeout_ms`, then takes the seat’s default as for an agent that timed out (docs/agents.md, "A seat over HTTP"). A 200 carries the clock in headers: `Decision-Timeout-Ms` (the decision’s time-out) and `Decision-Remaining-Ms` (what is left of it, by the server’s clock).',
    role: 'seat',
    ok: { status: 200, schema: 'SeatRequest', empty: 'Nothing pending for this seat now' },
    errors: [400, 403, 404],
  },
  {
    method: 'post',
    path: '/games/{id}/seats/{player_id}/decision',
    tag: 'seats',
    summary: 'Answer a human seat’s pending request',
    description:
      '`decision` exactly as an agent returns it in its state_patch, with the `requestId` it answers. 202 once the engine takes it (the game moves on); 422 with the engine’s `code` and reason in words when it would refuse it (the request stays pending: send another); 409 when nothing is pending or `requestId` is not the pending one’s. The decision is stored like any agent’s, so verify, replay, fork and export see it.',
    role: 'seat',
    body: 'SeatDecisionBody',
    ok: { status: 202, schema: 'SeatDecisionAccepted' },
    errors: [400, 403, 404, 409, 422],
  },
  {
    method: 'get',
    path: '/games',
    tag: 'games',
    summary: 'List games, newest first',
    description:
      '`status` takes one or more of created, running, ended, aborted, failed (comma-separated). `agent` keeps games with a seat of that agent; `tournament` keeps one tournament’s games, or with `none` the games outside every tournament. Pages of `limit` (1–500) with `cursor` = the previous page’s `next_cursor`. Anonymous callers see each game as of its delayed head (see GET /games/{id}) and are filtered on that status, so a page may hold fewer than `limit` games.',
    role: 'spectator',
    query: ListGamesQuery,
    ok: { status: 200, schema: 'GamesPage' },
    errors: [400],
  },
  {
    method: 'get',
    path: '/games/{id}',
    tag: 'games',
    summary: 'One game’s record, with its lineage',
    description:
      'Anonymous callers of a game with a hold-back (a spectator delay, or broadcast mode) see it as of the delayed head: `last_seq`, `status`, `placements`, `seed`, `ended_at` and `updated_at` never run ahead of the delayed event stream. `seed` is null until the game has ended and `last_hash` (over unredacted events) is for admins, and researchers once the game is over (docs/security.md). Lineage (docs/research.md, "Fork"): a fork’s `parent` (the game, fork seq and round, `same_deck`, the reseed once the fork has ended, the parent’s status), and any game’s `forks` (the first 50, oldest first, each with its fork point, `same_deck`, agents, status, placements and reseed as the caller may see that fork) with `fork_count`; a caller who sees the game as of a delayed head learns of no fork branching after it. A fork that kept its parent’s deck (`same_deck`) is a 404 here, on every /games/{id}/… route and on the socket, and absent from lists, for everyone but admins until it has ended: the parent’s public seed tells its draws.',
    role: 'spectator',
    ok: { status: 200, schema: 'GameDetail' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/games/{id}/fork',
    tag: 'games',
    summary: 'Fork a stored game at a decision point',
    description:
      'A new game sharing the parent’s log up to the first decision point at or after `at` (a seq, or "round:N"): re-simulated from the seed and checked against the parent, the same events under the fork’s own id. It plays on from there like any game, with `agents` (one per seat; default the parent’s). Everything no seat has seen is reseeded at the fork point — the undrawn deck shuffled again and the PRNG replaced — from a fresh secret (a CSPRNG’s), or from `reseed` when given; the parent’s seed, public once it has ended, then tells nothing of the fork’s draws. `same_deck: true` keeps the parent’s deck and PRNG instead (an exact replay with the same agents); such a fork is shown to admins only until it ends. Its `options.fork` records {parent_game_id, seq, parent_hash, secret?}, the secret shown like a seed (admins; everyone once the fork has ended), and the parent’s GET /games/{id} lists it under `forks`; GET /games/{id}/verify checks its prefix against the parent and replays the reseed (docs/research.md). A fork keeps its parent’s spectator delay and mode (held as a broadcast when the parent was, or when one of its own seats could act on one). 400 when the parent records no decision there or the agents do not fit its seats; 409 when the parent has not ended (running, failed or aborted: a fork shows its seed, the parent’s, and its prefix to researchers once the fork ends) or is a same-deck fork that has not ended: fork it once it has ended.',
    role: 'admin',
    body: 'ForkGameBody',
    ok: { status: 201, schema: 'GameView' },
    errors: [400, 403, 404, 409, 503],
  },
  {
    method: 'get',
    path: '/games/{id}/events',
    tag: 'spectating',
    summary: 'A page of the game’s event log, projected for the caller',
    description:
      'Events with seq in (after, after + limit], contiguous. Call again with `after = next_after` until `events` is empty. Anonymous spectators of a game with a spectator delay see only events committed at least that long ago; on a broadcast game they get the broadcast view by default (`view=broadcast`, allowed to anyone on such a game and always held back), and only events whose round is followed by a fully ended round (or the game’s end), also for REST snapshots and game records.',
    role: 'spectator',
    query: EventsQuery,
    ok: { status: 200, schema: 'EventsPage' },
    errors: [400, 403, 404],
  },
  {
    method: 'get',
    path: '/games/{id}/snapshot',
    tag: 'spectating',
    summary: 'The game state after one event, projected for the caller, with the hash of that projection',
    role: 'spectator',
    query: SnapshotQuery,
    ok: { status: 200, schema: 'SnapshotView' },
    errors: [400, 403, 404],
  },
  {
    method: 'get',
    path: '/games/{id}/replay',
    tag: 'spectating',
    summary: 'The whole game as one replay file, projected for the caller',
    description:
      'The view’s snapshot at seq 0 and every event it may see, up to its head (behind the spectator delay for anonymous callers; refused like `/events` while a duplicate set is held). Exactly what paging `/events` from 0 gives, in one file the visualizer opens offline (docs/visualizer.md, “Replay files”).',
    role: 'spectator',
    query: ReplayQuery,
    ok: { status: 200, schema: 'ReplayFile' },
    errors: [400, 403, 404],
  },
  {
    method: 'get',
    path: '/games/{id}/win-probability',
    tag: 'spectating',
    summary: 'Each seat’s chance to win after every event the caller may see',
    description:
      'Folded from the events `/events` gives the same caller (same view, delay, hold-back, duplicate-set hold and 404s), so it knows nothing they do not: anonymous callers of a public game get the public model, read off the public table alone, up to their delayed head; the broadcast view the omniscient one under the broadcast’s hold-back; admins the omniscient one live; researchers the public one while the game runs and the omniscient one once it is over. Only points where some chance moved are listed (a step line). Never part of the hash chain; recomputed on demand (cached per head).',
    role: 'spectator',
    query: WinProbabilityQuery,
    ok: { status: 200, schema: 'WinProbability' },
    errors: [400, 403, 404],
  },
  {
    method: 'get',
    path: '/games/{id}/traces',
    tag: 'spectating',
    summary: 'The agents’ decision traces: reasoning, calls, repairs, tokens, latency',
    description: 'One entry per agent decision, oldest first: skill and LLM seats\' as stored (agent_traces); built-in seats\' are not stored but made again from the seed and the recorded decisions (equal but for their timings). They hold what each seat saw and thought: admins any time, researchers once the game is over (403 before), never anonymous callers.',
    role: 'researcher',
    query: TracesQuery,
    ok: { status: 200, schema: 'Traces' },
    errors: [400, 403, 404],
  },
  {
    method: 'get',
    path: '/games/{id}/analytics',
    tag: 'spectating',
    summary: 'A game’s figures for researchers',
    description: 'The log folded into the figures `simulate` reports, from the events as the caller may see them: a researcher’s figures for a running game come from the public table only.',
    role: 'researcher',
    ok: { status: 200, schema: 'GameAnalytics' },
    errors: [403, 404],
  },
  {
    method: 'get',
    path: '/games/{id}/verify',
    tag: 'spectating',
    summary: 'Check a stored game end to end',
    description:
      'Hash chain, contiguous seqs, snapshots against the fold of the events, and a re-simulation from the seed and the recorded decisions, byte for byte. No agent is called. A game that has not ended needs an admin token (the report rests on hidden data); researchers may verify it once it is over.',
    role: 'researcher',
    ok: { status: 200, schema: 'RunReport' },
    errors: [403, 404],
  },
  {
    method: 'get',
    path: '/agents',
    tag: 'agents',
    summary: 'What may sit at a table',
    description: 'Built-in agents, the skills found under the skill folders (and the folders that do not load), and the LLM providers configured — names and kinds only.',
    role: 'spectator',
    ok: { status: 200, schema: 'AgentCatalog' },
    errors: [],
  },
  {
    method: 'post',
    path: '/tournaments',
    tag: 'tournaments',
    summary: 'Start a tournament',
    description:
      'The tournament config (format, entrants, seats, seeds, …: docs/tournaments.md) plus how its games are shown (name, pace_ms, spectator_delay_ms, spectators, broadcast_unsafe: an entrant that could act on a broadcast holds every game’s broadcast to its end, or is refused with a 400 naming it) and an optional hard cost cap (max_cost_usd: every LLM call reserves its worst case first and is not sent if that could pass the cap; games it cuts stop at a step boundary, unrated, and the tournament stops as stopped_by_budget with progress.planned and progress.stopped, resumable with a higher cap; every model must have a price). An LLM entrant whose model has no price is a 400 naming the price to add, unless allow_unpriced is true (its cost is then reported as unknown; never with max_cost_usd). Its games run in this server under TILTYARD_MAX_GAMES with every other game, each a normal stored game watchable live on /spectate; the lobby hears tournament_started, tournament_game_ended and tournament_ended. Without a seed the server draws an unguessable one.',
    role: 'admin',
    body: 'CreateTournamentBody',
    ok: { status: 201, schema: 'TournamentView' },
    errors: [400, 403, 503],
  },
  {
    method: 'post',
    path: '/tournaments/{id}/resume',
    tag: 'tournaments',
    summary: 'Resume a tournament, playing its failed games again',
    description:
      'The failed games of the batch being played (a worker’s error, a database that stayed away past TILTYARD_STORE_RETRY_MS) are put back in play, each as a new attempt (a new queue job), resuming from its last committed step; they count once they end, never twice. Then the tournament runs on, reopened if it had ended with such failures. Failed games of an earlier Swiss round stay failed: later rounds were paired with them as draws. An optional body {max_cost_usd} sets a new cost limit (null lifts it): a tournament stopped_by_budget goes on with a higher one.',
    role: 'admin',
    body: 'ResumeTournamentBody',
    ok: { status: 202, schema: 'TournamentView' },
    errors: [403, 404, 409, 503],
  },
  {
    method: 'get',
    path: '/tournaments',
    tag: 'tournaments',
    summary: 'List tournaments, newest first',
    description: '`status` takes one or more of created, running, ended, aborted. Pages with `cursor` = the previous page’s `next_cursor`.',
    role: 'spectator',
    query: ListTournamentsQuery,
    ok: { status: 200, schema: 'TournamentsPage' },
    errors: [400],
  },
  {
    method: 'get',
    path: '/tournaments/{id}',
    tag: 'tournaments',
    summary: 'One tournament: config, progress, standings with intervals, games with links',
    description: 'Standings count ended games only; a game still being played shows who sits where and nothing else. The seed is an admin’s only until the tournament is over.',
    role: 'spectator',
    ok: { status: 200, schema: 'TournamentView' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/tournaments/{id}/attacks',
    tag: 'tournaments',
    summary: 'Who manipulated whom: the attempts behind each pair',
    description: 'Folded from each ended game’s log as a spectator of the ended game sees it (the plan’s target, manipulation_plan, emotional_intent and outcome are public once an attack resolves); running games are left out, and for anonymous callers so is a game still inside its spectator delay.',
    role: 'spectator',
    ok: { status: 200, schema: 'TournamentAttacks' },
    errors: [404],
  },
  {
    method: 'get',
    path: '/tournaments/{id}/report',
    tag: 'tournaments',
    summary: 'The research report of a tournament',
    description: 'Folded from the stored events of its ended games only (while it runs, its live games are left out, so nothing hidden leaks). `format=csv` answers text/csv.',
    role: 'researcher',
    query: ReportQuery,
    ok: { status: 200, schema: 'TournamentReport', csv: true },
    errors: [400, 403, 404],
  },
  {
    method: 'post',
    path: '/ladders',
    tag: 'ladders',
    summary: 'Create a ladder',
    description: 'A standing competition (docs/ladder.md): name, entrants ({agent, max_usd_per_day?, max_usd_total?}: caps for LLM entrants, which need a price), seats, compact windows, seed. Its deals are played by `tiltyard ladder run` or `tiltyard serve --ladder <id>`.',
    role: 'admin',
    body: 'CreateLadderBody',
    ok: { status: 201, schema: 'LadderView' },
    errors: [400, 403],
  },
  {
    method: 'get',
    path: '/ladders',
    tag: 'ladders',
    summary: 'List ladders, newest first',
    role: 'spectator',
    ok: { status: 200, schema: 'LaddersPage' },
    errors: [],
  },
  {
    method: 'get',
    path: '/ladders/{id}',
    tag: 'ladders',
    summary: 'One ladder: standings with intervals, rating history, recent games, entrants',
    description: 'Standings count done deals only (a deal counts once all its rotations are stored). Entrants say who is a newcomer (still placed by the matchmaker) and who is suspended, with the cause.',
    role: 'spectator',
    ok: { status: 200, schema: 'LadderView' },
    errors: [404],
  },
  {
    method: 'post',
    path: '/ladders/{id}/entrants',
    tag: 'ladders',
    summary: 'Add an entrant (a newcomer from the next deal on), or bring a retired one back',
    description: 'Before its first game a skill must pass agent-check and an LLM entrant its preflight; refused, it is suspended with the cause.',
    role: 'admin',
    body: 'AddEntrantBody',
    ok: { status: 201, schema: 'LadderView' },
    errors: [400, 403, 404],
  },
];

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** JSON Schema without the `$schema` line zod puts on top (OpenAPI 3.1 takes 2020-12 as is). */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): SchemaObject & { properties?: Record<string, SchemaObject>; required?: string[] } {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest as SchemaObject;
}

/** Query parameters from a query schema: their parsed types, required when the input must carry them. */
function queryParameters(schema: z.ZodObject): ParameterObject[] {
  const required = new Set(jsonSchema(schema, 'input').required ?? []);
  return Object.entries(jsonSchema(schema, 'output').properties ?? {}).map(([name, s]) => {
    const { description, ...rest } = s as SchemaObject & { description?: string };
    return { name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

function operation(r: Route): OperationObject {
  const what = r.path.startsWith('/tournaments') ? 'The tournament id (trn_…)' : r.path.startsWith('/ladders') ? 'The ladder id (lad_…)' : 'The game id (game_…)';
  const params: ParameterObject[] = r.path.includes('{id}') ? [{ name: 'id', in: 'path', required: true, description: what, schema: { type: 'string' } }] : [];
  if (r.path.includes('{player_id}')) params.push({ name: 'player_id', in: 'path', required: true, description: 'The seat (plr_1…)', schema: { type: 'string' } });
  if (r.query) params.push(...queryParameters(r.query));
  const errorStatuses = [...new Set([...r.errors, 401, 500])].sort();
  return {
    tags: [r.tag],
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    operationId: `${r.method}${r.path.replace(/[{}]/g, '').replace(/\/(\w)/g, (_, c: string) => c.toUpperCase())}`,
    ...(params.length ? { parameters: params } : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(r.body) } } } } : {}),
    // Spectator routes take a token but need none; the others need one of the right role.
    security: r.role === 'spectator' ? [{}, { bearer: [] }] : [{ bearer: [] }],
    responses: {
      [r.ok.status]: {
        description: r.role === 'spectator' ? 'OK' : r.role === 'seat' ? 'OK (this seat’s token)' : `OK (${r.role} token or above)`,
        content: { 'application/json': { schema: ref(r.ok.schema) }, ...(r.ok.csv ? { 'text/csv': { schema: { type: 'string' } } } : {}) },
      },
      ...(r.ok.empty ? { 204: { description: r.ok.empty } } : {}),
      ...Object.fromEntries(errorStatuses.map((s) => [s, { description: ERRORS[s] ?? 'Error', content: { 'application/json': { schema: ref('Error') } } }])),
    },
  };
}

function componentSchemas(): Record<string, SchemaObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}`, unrepresentable: 'any' });
  const out: Record<string, SchemaObject> = {};
  for (const [id, s] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = s;
    out[id] = rest as SchemaObject;
  }
  for (const [id, schema] of Object.entries(BODIES)) out[id] = jsonSchema(schema, 'input');
  return out;
}

/**
 * The OpenAPI 3.1 document of the HTTP API, built from the zod schemas the server parses with and
 * the protocol's own schemas, plus the socket.io spectator protocol in its description.
 *
 * @example openApiDocument().paths['/games/{id}/events']?.get?.parameters
 */
export function openApiDocument(): OpenAPIObject {
  const paths: OpenAPIObject['paths'] = {};
  for (const r of ROUTES) paths[r.path] = { ...paths[r.path], [r.method]: operation(r) };
  return {
    openapi: '3.1.0',
    info: { title: 'Tiltyard', version: RULES_VERSION, description: SPECTATE_PROTOCOL },
    tags: [
      { name: 'games', description: 'Creating and listing games' },
      { name: 'spectating', description: 'A game’s log and states as the caller may see them (live: socket.io /spectate, see above)' },
      { name: 'seats', description: 'A human seat over HTTP: its pending request and its answer (docs/agents.md, "A seat over HTTP")' },
      { name: 'agents', description: 'Agents, skills and LLM providers' },
      { name: 'tournaments', description: 'AI-vs-AI tournaments: formats, ratings with intervals, research reports' },
      { name: 'ladders', description: 'Standing ladders: entrants, deals chosen where they teach the most, standings always current' },
      { name: 'server', description: 'The server itself' },
    ],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'TILTYARD_ADMIN_TOKEN or TILTYARD_RESEARCHER_TOKEN; none: anonymous spectator; a human seat’s token (POST /games `human_seats`) on its seat routes, /events and /snapshot (that seat’s view only)' } },
      schemas: componentSchemas(),
    },
    paths,
  };
}
