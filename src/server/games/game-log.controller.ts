import { Controller, Get, Headers, Inject, Param, Query } from '@nestjs/common';
import type { RunReport } from '../../runner/verify-game.js';
import type { Role } from '../auth/roles.js';
import type { ServerSettings } from '../config.js';
import { parseOr400 } from '../http/validate.js';
import { SETTINGS, STORE } from '../tokens.js';
import type { EventStore } from '../../store/index.js';
import { orHttp } from './http-errors.js';
import { roleOrSeat } from './seat-access.js';
import { EventsQuery, ReplayQuery, SnapshotQuery, TracesQuery, WinProbabilityQuery } from './game-log.schemas.js';
import type { WinReport } from '../../eval/win-report.js';
import type { ReplayFile } from '../../view/replay-file.js';
import { GameLogService, type EventsPage, type GameAnalytics, type SnapshotView } from './game-log.service.js';

type RequestHeaders = Record<string, string | string[] | undefined>;

/** A stored game's log, states and verification, projected for the caller's role. */
@Controller('games')
export class GameLogController {
  constructor(
    private readonly log: GameLogService,
    @Inject(SETTINGS) private readonly settings: ServerSettings,
    @Inject(STORE) private readonly store: EventStore,
  ) {}

  /** A human seat's token reads its own seat's view here (and in /snapshot, /replay, /win-probability), live; nothing else. */
  @Get(':id/events')
  async events(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<EventsPage> {
    const who = await orHttp(roleOrSeat(this.store, this.settings, id, headers));
    return this.log.events(id, who.role ?? { seat: who.seat }, parseOr400(EventsQuery, query, 'query'));
  }

  @Get(':id/snapshot')
  async snapshot(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<SnapshotView> {
    const who = await orHttp(roleOrSeat(this.store, this.settings, id, headers));
    return this.log.snapshot(id, who.role ?? { seat: who.seat }, parseOr400(SnapshotQuery, query, 'query'));
  }

  /** One file holding the game as the caller's view may see it (docs/visualizer.md, "Replay files"); a seat token: its own seat's. */
  @Get(':id/replay')
  async replay(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<ReplayFile> {
    const who = await orHttp(roleOrSeat(this.store, this.settings, id, headers));
    return this.log.replay(id, who.role ?? { seat: who.seat }, parseOr400(ReplayQuery, query, 'query'));
  }

  /** Each seat's chance to win, event by event, as the caller's view may know it (GameLogService.winProbability); a seat token: the public form of its own view. */
  @Get(':id/win-probability')
  async winProbability(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<WinReport> {
    const who = await orHttp(roleOrSeat(this.store, this.settings, id, headers));
    return this.log.winProbability(id, who.role ?? { seat: who.seat }, parseOr400(WinProbabilityQuery, query, 'query'));
  }

  @Get(':id/traces')
  async traces(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): ReturnType<GameLogService['traces']> {
    const role = await this.roleOnly(id, headers, 'researcher');
    return this.log.traces(id, role, parseOr400(TracesQuery, query, 'query'));
  }

  @Get(':id/analytics')
  async analytics(@Param('id') id: string, @Headers() headers: RequestHeaders): Promise<GameAnalytics> {
    const role = await this.roleOnly(id, headers, 'researcher');
    return this.log.analytics(id, role);
  }

  @Get(':id/verify')
  async verify(@Param('id') id: string, @Headers() headers: RequestHeaders): Promise<RunReport> {
    const role = await this.roleOnly(id, headers, 'researcher');
    return this.log.verify(id, role);
  }

  /** A researcher's or admin's route: a seat token of this game is a 403 (it reads its own seat only), others as requireRole says. */
  private async roleOnly(id: string, headers: RequestHeaders, atLeast: 'researcher'): Promise<Role> {
    return (await orHttp(roleOrSeat(this.store, this.settings, id, headers, atLeast))).role!;
  }
}
