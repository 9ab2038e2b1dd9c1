import { Module } from '@nestjs/common';
import { TournamentsController } from './tournaments.controller.js';
import { TournamentsService } from './tournaments.service.js';

/** Tournaments over REST and in the lobby (GameService and GameBus come from the global GamesModule). */
@Module({ controllers: [TournamentsController], providers: [TournamentsService] })
export class TournamentsModule {}
