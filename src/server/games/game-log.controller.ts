import { Controller, Get, Headers, Inject, Param, Query } from '@nestjs/common';
import type { RunReport } from '../../runner/verify-game.js';
import { requireRole } from '../auth/require-role.js';
import type { ServerSettings } from '../config.js';
import { parseOr400 } from '../http/validate.js';
import { SETTINGS } from '../tokens.js';
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
  ) {}

  @Get(':id/events')
  events(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<EventsPage> {
    const role = requireRole(headers, this.settings);
    return this.log.events(id, role, parseOr400(EventsQuery, query, 'query'));
  }

  @Get(':id/snapshot')
  snapshot(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<SnapshotView> {
    const role = requireRole(headers, this.settings);
    return this.log.snapshot(id, role, parseOr400(SnapshotQuery, query, 'query'));
  }

  /** One file holding the game as the caller's view may see it (docs/visualizer.md, "Replay files"). */
  @Get(':id/replay')
  replay(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<ReplayFile> {
    const role = requireRole(headers, this.settings);
    return this.log.replay(id, role, parseOr400(ReplayQuery, query, 'query'));
  }

  /** Each seat's chance to win, event by event, as the caller's view may know it (GameLogService.winProbability). */
  @Get(':id/win-probability')
  winProbability(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): Promise<WinReport> {
    const role = requireRole(headers, this.settings);
    return this.log.winProbability(id, role, parseOr400(WinProbabilityQuery, query, 'query'));
  }

  @Get(':id/traces')
  traces(@Param('id') id: string, @Query() query: unknown, @Headers() headers: RequestHeaders): ReturnType<GameLogService['traces']> {
    const role = requireRole(headers, this.settings, 'researcher');
    return this.log.traces(id, role, parseOr400(TracesQuery, query, 'query'));
  }

  @Get(':id/analytics')
  analytics(@Param('id') id: string, @Headers() headers: RequestHeaders): Promise<GameAnalytics> {
    const role = requireRole(headers, this.settings, 'researcher');
    return this.log.analytics(id, role);
  }

  @Get(':id/verify')
  verify(@Param('id') id: string, @Headers() headers: RequestHeaders): Promise<RunReport> {
    const role = requireRole(headers, this.settings, 'researcher');
    return this.log.verify(id, role);
  }
}
