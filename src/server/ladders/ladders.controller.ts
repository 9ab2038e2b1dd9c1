import { Body, Controller, Get, Headers, HttpCode, Inject, NotFoundException, Param, Post } from '@nestjs/common';
import { requireRole } from '../auth/require-role.js';
import type { ServerSettings } from '../config.js';
import { parseOr400 } from '../http/validate.js';
import { orHttp } from '../games/http-errors.js';
import { SETTINGS, STORE } from '../tokens.js';
import { LadderNotFoundError, type EventStore } from '../../store/index.js';
import { CreateLadderInput, EntrantInput } from '../../ladder/ladder-input.js';
import { ladderSummary, ladderView, type LadderView } from '../../ladder/ladder-view.js';

type RequestHeaders = Record<string, string | string[] | undefined>;

/** orHttp for the ladder routes: an unknown ladder is a 404 naming it. */
async function ladderOrHttp<T>(call: Promise<T>): Promise<T> {
  try {
    return await orHttp(call);
  } catch (e) {
    if (e instanceof LadderNotFoundError) throw new NotFoundException(`no ladder ${e.ladderId} (GET /ladders lists them)`);
    throw e;
  }
}

/**
 * Ladders over REST (docs/ladder.md): create and add entrants (admin), list and read (anyone). The
 * view holds only what ended games show (placements) and entrants' health: no hidden information.
 * Deals are played by `tiltyard ladder run` or `tiltyard serve --ladder <id>`, not by these routes.
 */
@Controller('ladders')
export class LaddersController {
  constructor(
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(STORE) private readonly store: EventStore,
  ) {}

  /** `POST /ladders` {name, entrants: [{agent, max_usd_per_day?, max_usd_total?}], seats?, compact?, seed?} → 201 and the ladder. */
  @Post()
  @HttpCode(201)
  async create(@Headers() headers: RequestHeaders, @Body() body: unknown): Promise<LadderView> {
    requireRole(headers, this.settings, 'admin');
    const input = parseOr400(CreateLadderInput, body, 'body');
    const l = await ladderOrHttp(this.store.ladders.create(input));
    return ladderOrHttp(ladderView(this.store, l.ladder_id));
  }

  /** `GET /ladders` → {ladders}, newest first. */
  @Get()
  async list(@Headers() headers: RequestHeaders): Promise<{ ladders: ReturnType<typeof ladderSummary>[] }> {
    requireRole(headers, this.settings);
    return { ladders: (await ladderOrHttp(this.store.ladders.list(1000))).map(ladderSummary) };
  }

  /** `GET /ladders/:id` → standings with intervals, rating history, recent games, entrants (newcomers, suspended with cause). */
  @Get(':id')
  get(@Headers() headers: RequestHeaders, @Param('id') id: string): Promise<LadderView> {
    requireRole(headers, this.settings);
    return ladderOrHttp(ladderView(this.store, id));
  }

  /** `POST /ladders/:id/entrants` {agent, max_usd_per_day?, max_usd_total?} → 201 and the ladder; a newcomer from the next deal on. */
  @Post(':id/entrants')
  @HttpCode(201)
  async addEntrant(@Headers() headers: RequestHeaders, @Param('id') id: string, @Body() body: unknown): Promise<LadderView> {
    requireRole(headers, this.settings, 'admin');
    const input = parseOr400(EntrantInput, body, 'body');
    await ladderOrHttp(this.store.ladders.addEntrant(id, input));
    return ladderOrHttp(ladderView(this.store, id));
  }
}
