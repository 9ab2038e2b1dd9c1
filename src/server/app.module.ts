import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { EventStore } from '../store/index.js';
import type { ServerSettings } from './config.js';
import { AgentsModule } from './agents/agents.module.js';
import { GameLogModule } from './games/game-log.module.js';
import { GamesModule } from './games/games.module.js';
import { HealthModule } from './health/health.module.js';
import { ErrorsModule } from './http/errors.module.js';
import type { JsonLogger } from '../lib/json-logger.js';
import { SpectateModule } from './spectate/spectate.module.js';
import { TournamentsModule } from './tournaments/tournaments.module.js';
import { LaddersModule } from './ladders/ladders.module.js';
import { LOGGER, SETTINGS, STORE } from './tokens.js';

/** The ports every module may inject: the store, the settings and the logger. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(deps: { store: EventStore; settings: ServerSettings; logger: JsonLogger }): DynamicModule {
    const providers = [
      { provide: STORE, useValue: deps.store },
      { provide: SETTINGS, useValue: deps.settings },
      { provide: LOGGER, useValue: deps.logger },
    ];
    return { module: CoreModule, providers, exports: providers };
  }
}

/** The application: core ports plus the feature modules. */
@Module({})
export class AppModule {
  static forRoot(deps: { store: EventStore; settings: ServerSettings; logger: JsonLogger }): DynamicModule {
    return { module: AppModule, imports: [CoreModule.forRoot(deps), ErrorsModule, HealthModule, GamesModule, GameLogModule, AgentsModule, SpectateModule, TournamentsModule, LaddersModule] };
  }
}
