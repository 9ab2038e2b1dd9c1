import { entitledSummaries, storedSeatSummaries, type SeatSummary } from '../../runner/seat-summary.js';
import { preflightOr400 } from '../http/preflight.js';
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { requireRole } from '../auth/require-role.js';
import type { ServerSettings } from '../config.js';
import { parseOr400 } from '../http/validate.js';
import type { EventStore, GameRecord } from '../../store/index.js';
import type { Role } from '../auth/roles.js';
import { seedsInPlay } from '../tournaments/seed-guard.js';
import { SETTINGS, STORE } from '../tokens.js';
import { GameBus } from '../../live/game-bus.js';
import { GameService } from './game.service.js';
import { CreateGameBody, ListGamesQuery } from './game-request.js';
import { ForkGameBody } from './fork-request.js';
import { gameView, type GameView } from './game-view.js';
import { gameLineage, type GameLineage } from './game-lineage.js';
import { hiddenFork, refuseHiddenFork } from './hidden-fork.js';
import { orHttp } from './http-errors.js';
import type { HumanSeatTicket } from './seat-tokens.js';
import { storeStatuses, visibleGame } from './visible-game.js';

type RequestHeaders = Record<string, string | string[] | undefined>;

/**
 * Games over REST: create (admin), list, get. Callers other than admins never see the seed of a
 * game that has not ended nor the hash chain (see gameView), nor a fork that kept its parent's
 * deck before it ends (hiddenFork); anonymous callers see a delayed game as of its delayed head
 * (see visibleGame).
 */
@Controller('games')
export class GamesController {
  constructor(
    private readonly games: GameService,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(STORE) private readonly store: EventStore,
    private readonly bus: GameBus,
  ) {}

  /** `POST /games` {agents, seed?, rules?, spectator_delay_ms?, pace_ms?, human_timeout_ms?} → 201 and the game, with `human_seats` (each human seat's token and link). */
  @Post()
  @HttpCode(201)
  async create(@Headers() headers: RequestHeaders, @Body() body: unknown): Promise<GameView & { human_seats: HumanSeatTicket[] }> {
    const role = requireRole(headers, this.settings, 'admin');
    const request = parseOr400(CreateGameBody, body, 'body');
    await preflightOr400(request.agents, request.preflight);
    // human_seats carries each human seat's token: the only time it is ever given out.
    const { human_seats, ...game } = await orHttp(this.games.create(request));
    return { ...gameView(game, role), human_seats };
  }

  /**
   * `POST /games/:id/fork` {at, agents?, reseed?, same_deck?, pace_ms?} (admin) → 201 and the fork:
   * a new game sharing the parent's log up to the decision point at or after `at`, reseeded there
   * from a fresh secret (or `reseed`; `same_deck` keeps the parent's deck), queued to play on like
   * any game; its `options.fork` records the parent, the fork seq and the secret. 404 for an
   * unknown parent; 400 when it records no decision there or the agents do not fit its seats; 409
   * when the parent is still running behind a delay or as a broadcast, or is a hidden fork
   * (fork-options.ts).
   */
  @Post(':id/fork')
  @HttpCode(201)
  async fork(@Headers() headers: RequestHeaders, @Param('id') id: string, @Body() body: unknown): Promise<GameView> {
    const role = requireRole(headers, this.settings, 'admin');
    const request = parseOr400(ForkGameBody, body, 'body');
    if (request.agents) await preflightOr400(request.agents, undefined);
    return gameView(await orHttp(this.games.fork(id, request)), role);
  }

  /** `GET /games?status=&agent=&tournament=&limit=&cursor=` → {games, next_cursor}, newest first. */
  @Get()
  async list(@Headers() headers: RequestHeaders, @Query() query: unknown): Promise<{ games: GameView[]; next_cursor: string | null }> {
    const role = requireRole(headers, this.settings);
    const q = parseOr400(ListGamesQuery, query, 'query');
    const status = storeStatuses(q.status, role);
    const filter = { ...(status ? { status } : {}), ...(q.agent ? { agent: q.agent } : {}), ...(q.tournament ? { tournament_id: q.tournament === 'none' ? null : q.tournament } : {}) };
    const page = await orHttp(this.games.list(filter, { ...(q.limit ? { limit: q.limit } : {}), ...(q.cursor ? { cursor: q.cursor } : {}) }));
    const now = Date.now();
    // Hidden forks are left out, so a page may come out short (as with the status filter below).
    const listed = page.games.filter((g) => !hiddenFork(g, role));
    const inPlay = await this.seedsInPlay(role, listed);
    const games = await orHttp(Promise.all(listed.map((g) => visibleGame(this.store, g, role, now, this.bus.commits, inPlay.has(g.game_id)))));
    return { games: q.status ? games.filter((g) => q.status!.includes(g.status)) : games, next_cursor: page.next_cursor };
  }

  /**
   * `GET /games/:id` → the game, or 404, with its lineage: `parent` (a fork's parent, fork point and
   * round; null for other games) and its first forks with `fork_count` (see gameLineage). Admins
   * and researchers also get `seat_health`: each seat's decisions (first time, repaired, fell back
   * by reason), calls by outcome, tokens, cost, latency.
   */
  @Get(':id')
  async get(@Headers() headers: RequestHeaders, @Param('id') id: string): Promise<GameView & GameLineage & { seat_health?: SeatSummary[] }> {
    const role = requireRole(headers, this.settings);
    const game = await orHttp(this.games.get(id));
    refuseHiddenFork(game, role);
    const now = Date.now();
    const view = await orHttp(visibleGame(this.store, game, role, now, this.bus.commits, (await this.seedsInPlay(role, [game])).has(game.game_id)));
    const lineage = await orHttp(gameLineage(this.store, game, view, role, now, this.bus.commits));
    // Anonymous callers get none: not read for them (a built-in seat's figures read the actions).
    const health = role === 'admin' || role === 'researcher' ? entitledSummaries(await orHttp(storedSeatSummaries(this.store, game.game_id)), { role }) : [];
    return { ...view, ...lineage, ...(health.length ? { seat_health: health } : {}) };
  }

  /** Ended games (forks of tournament games included) whose seed a tournament still deals from (admins see every seed anyway). */
  private seedsInPlay(role: Role, games: readonly GameRecord[]): Promise<Set<string>> {
    const ended = games.filter((g) => g.status === 'ended');
    return role === 'admin' ? Promise.resolve(new Set()) : seedsInPlay(this.store, ended);
  }
}
