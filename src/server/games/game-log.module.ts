import { Module } from '@nestjs/common';
import { GameLogController } from './game-log.controller.js';
import { GameLogService } from './game-log.service.js';

/** GET /games/:id/events, /snapshot and /verify. */
@Module({ controllers: [GameLogController], providers: [GameLogService] })
export class GameLogModule {}
