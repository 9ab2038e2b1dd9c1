import { Global, Module } from '@nestjs/common';
import type { GameQueue } from '../../scale/game-queue.js';
import type { RedisGameBus } from '../../scale/redis-bus.js';
import type { EventStore } from '../../store/index.js';
import type { ServerSettings } from '../config.js';
import type { JsonLogger } from '../../lib/json-logger.js';
import { GAME_QUEUE_PORT, LOGGER, SETTINGS, STORE } from '../tokens.js';
import { GameBus } from '../../live/game-bus.js';
import { GameService } from './game.service.js';
import { HumanDesk } from '../../agents/seat/human-desk.js';
import { GamesController } from './games.controller.js';
import { SeatsController } from './seats.controller.js';
import { spectatorDelayOf } from './spectator-delay.js';

/**
 * This node's bus: in-process, or (REDIS_URL) the Redis channel every worker and node publishes
 * on, delivered to this node's listeners. A delayed game's commit times are recorded from its
 * start here too, as playLive does for games played in-process. A batch announced without its
 * events (a whole game) is read from the store, only for games this node's spectators follow.
 */
async function nodeBus(settings: ServerSettings, logger: JsonLogger, store: EventStore): Promise<GameBus> {
  if (!settings.scale) return new GameBus();
  // Loaded only with REDIS_URL: the Redis stack is not part of a plain server's start.
  const { RedisGameBus } = await import('../../scale/redis-bus.js');
  const bus: RedisGameBus = new RedisGameBus(settings.scale, {
    listen: true,
    onProblem: (msg, fields) => logger.emit('warn', msg, fields),
    readStored: async (gameId, afterSeq, lastSeq) => {
      const events = [];
      for (let after = afterSeq; after < lastSeq; ) {
        const page = await store.read(gameId, after, lastSeq - after);
        if (page.length === 0) break;
        events.push(...page.filter((e) => e.seq <= lastSeq));
        after = page.at(-1)!.seq;
      }
      return events;
    },
    onNotice: (n) => {
      if (n.type === 'game_started')
        store.getGame(n.game_id).then(
          (g) => bus.commits.retain(n.game_id, spectatorDelayOf(g)),
          () => {},
        );
      else if (n.type === 'game_ended' || n.type === 'game_failed') bus.commits.release(n.game_id);
    },
  });
  await bus.start();
  return bus;
}

/** With REDIS_URL, the queue games go to (bullmq, loaded only then); else none. */
async function gameQueue(settings: ServerSettings, logger: JsonLogger): Promise<GameQueue | null> {
  if (!settings.scale) return null;
  const { GameQueue } = await import('../../scale/game-queue.js');
  return new GameQueue(settings.scale, { onProblem: (msg, fields) => logger.emit('warn', msg, fields) });
}

/**
 * Games: the REST controller, the service that plays them, and the one GameBus of this process.
 * Global, so the spectator gateway (or any module) can inject `GameBus` / `GameService` by class
 * and gets the very instances the games publish on. With REDIS_URL, also the queue games go to.
 */
@Global()
@Module({
  controllers: [GamesController, SeatsController],
  providers: [
    { provide: GameBus, useFactory: nodeBus, inject: [SETTINGS, LOGGER, STORE] },
    { provide: GAME_QUEUE_PORT, useFactory: gameQueue, inject: [SETTINGS, LOGGER] },
    // One desk per process: where human seats' requests wait for their answers over HTTP.
    HumanDesk,
    GameService,
  ],
  exports: [GameBus, GameService, GAME_QUEUE_PORT, HumanDesk],
})
export class GamesModule {}
