import { preflightOr400 } from '../http/preflight.js';
import { Body, Controller, Get, Headers, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { requireRole } from '../auth/require-role.js';
import type { ServerSettings } from '../config.js';
import { parseOr400 } from '../http/validate.js';
import { SETTINGS, STORE } from '../tokens.js';
import type { EventStore } from '../../store/index.js';
import { storedAgentHealth, type AgentHealth } from '../../runner/agent-health.js';
import { tournamentOrHttp } from './tournament-http-errors.js';
import { CreateTournamentBody, ListTournamentsQuery, ReportQuery, ResumeTournamentBody } from './tournament-request.js';
import { type TournamentSummaryView, type TournamentView } from './tournament-view.js';
import { reportToCsv } from '../../tournament/report-csv.js';
import type { TournamentReportView } from './tournament-report.js';
import type { TournamentAttacksView } from './tournament-attacks.js';
import { TournamentsService } from './tournaments.service.js';

type RequestHeaders = Record<string, string | string[] | undefined>;
/** The bit of Express's response the CSV report needs. */
type ReplyHeaders = { setHeader(name: string, value: string): unknown };

/**
 * Tournaments over REST: create (admin), list, get, and the research report (researcher). Roles
 * and errors as for /games: 401 for a token nobody configured, 403 below the route's role, 400
 * naming the field.
 */
@Controller('tournaments')
export class TournamentsController {
  constructor(
    private readonly tournaments: TournamentsService,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(STORE) private readonly store: EventStore,
  ) {}

  /** `POST /tournaments` {format, entrants, seats, …, name?, pace_ms?, spectator_delay_ms?} → 201 and the tournament. */
  @Post()
  @HttpCode(201)
  async create(@Headers() headers: RequestHeaders, @Body() body: unknown): Promise<TournamentView> {
    const role = requireRole(headers, this.settings, 'admin');
    const request = parseOr400(CreateTournamentBody, body, 'body');
    await preflightOr400(request.config.entrants, request.preflight, 'entrants');
    const t = await tournamentOrHttp(this.tournaments.create(request));
    return tournamentOrHttp(this.tournaments.view(t.tournament_id, role));
  }

  /**
   * `POST /tournaments/:id/resume` → 202 and the tournament: its failed games of the batch being
   * played are played again (each a new attempt, counted once it ends), and it runs on; 409 while
   * this server runs it. Admin only. A body `{ "max_cost_usd": X }` sets a new cost limit (a
   * tournament `stopped_by_budget` resumes with a higher one; null lifts it).
   */
  @Post(':id/resume')
  @HttpCode(202)
  async resume(@Headers() headers: RequestHeaders, @Param('id') id: string, @Body() body: unknown): Promise<TournamentView> {
    const role = requireRole(headers, this.settings, 'admin');
    const request = parseOr400(ResumeTournamentBody, body ?? undefined, 'body');
    await tournamentOrHttp(this.tournaments.resume(id, request?.max_cost_usd));
    return tournamentOrHttp(this.tournaments.view(id, role));
  }

  /** `GET /tournaments?status=&limit=&cursor=` → {tournaments, next_cursor}, newest first. */
  @Get()
  async list(@Headers() headers: RequestHeaders, @Query() query: unknown): Promise<{ tournaments: TournamentSummaryView[]; next_cursor: string | null }> {
    const role = requireRole(headers, this.settings);
    const q = parseOr400(ListTournamentsQuery, query, 'query');
    return tournamentOrHttp(this.tournaments.list(role, q.status ? { status: q.status } : {}, { ...(q.limit ? { limit: q.limit } : {}), ...(q.cursor ? { cursor: q.cursor } : {}) }));
  }

  /**
   * `GET /tournaments/:id` → config, progress, standings (ended games only) and games with links.
   * Admins and researchers also get `llm`: per LLM entrant, its decisions (first time, repaired,
   * fell back by reason), calls by outcome, tokens, cost, error rates and latency over its games —
   * how an agent's seats are doing, which, as for a game's `seat_health`, spectators do not see.
   */
  @Get(':id')
  async get(@Headers() headers: RequestHeaders, @Param('id') id: string): Promise<TournamentView & { llm?: Record<string, AgentHealth> }> {
    const role = requireRole(headers, this.settings);
    const view = await tournamentOrHttp(this.tournaments.view(id, role));
    if (role === 'spectator') return view;
    const entrants = (view.config as { entrants?: string[] }).entrants ?? [];
    const llm = await tournamentOrHttp(storedAgentHealth(this.store, id, entrants));
    return Object.keys(llm).length ? { ...view, llm } : view;
  }

  /**
   * `GET /tournaments/:id/attacks` → the who-manipulated-whom matrix of its ended games: per ordered
   * pair of entrants, the manipulation attempts (game, seq, plan, outcome). Public facts only, so
   * any caller; anonymous callers get a game once its spectator delay has passed.
   */
  @Get(':id/attacks')
  attacks(@Headers() headers: RequestHeaders, @Param('id') id: string): Promise<TournamentAttacksView> {
    const role = requireRole(headers, this.settings);
    return tournamentOrHttp(this.tournaments.attacks(id, role));
  }

  /** `GET /tournaments/:id/report?format=json|csv&table=agents|pairs|plans|intents|ledger` → the research report of its ended games. */
  @Get(':id/report')
  async report(
    @Headers() headers: RequestHeaders,
    @Param('id') id: string,
    @Query() query: unknown,
    @Res({ passthrough: true }) res: ReplyHeaders,
  ): Promise<TournamentReportView | string> {
    const role = requireRole(headers, this.settings, 'researcher');
    const q = parseOr400(ReportQuery, query, 'query');
    const report = await tournamentOrHttp(this.tournaments.report(id, role));
    if (q.format === 'json') return report;
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('content-disposition', `inline; filename="${id}-${q.table}.csv"`);
    return reportToCsv(report.report)[`${q.table}.csv`];
  }
}
