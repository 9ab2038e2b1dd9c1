import { Global, Module } from '@nestjs/common';
import { GameBus } from './game-bus.js';
import { GameService } from './game.service.js';
import { GamesController } from './games.controller.js';

/**
 * Games: the REST controller, the service that plays them, and the one GameBus of this process.
 * Global, so the spectator gateway (or any module) can inject `GameBus` / `GameService` by class
 * and gets the very instances the games publish on.
 */
@Global()
@Module({
  controllers: [GamesController],
  providers: [GameBus, GameService],
  exports: [GameBus, GameService],
})
export class GamesModule {}
