import { hostname } from 'node:os';
import type { INestApplication } from '@nestjs/common';
import { acquireLease, ladderLeaseKey, type Lease, type LeaseRefusal } from '../../scale/coordinator-lease.js';
import type { GameQueue } from '../../scale/game-queue.js';
import { degradedOf } from '../../runner/degraded.js';
import type { EventStore } from '../../store/index.js';
import type { GameOutcome } from '../../tournament/play-scheduled.js';
import { GameService } from '../games/game.service.js';
import { GAME_QUEUE_PORT } from '../tokens.js';

export type LadderPorts = {
  play: (gameId: string) => Promise<GameOutcome>;
  lease: () => Promise<Lease | LeaseRefusal>;
};

/**
 * Scaled out (REDIS_URL), how a server's background ladder runs as tournaments do: its games go
 * through GameService, which queues them for `tiltyard worker`s and follows them, and a Redis lease
 * makes one API node its coordinator. Null in-process: the ladder plays its games itself. (A deal
 * with a capped LLM entrant is still played on the coordinator: see runLadder's `play`.)
 */
export function ladderOnWorkers(app: INestApplication, store: EventStore, where: { prefix: string | null; ladderId: string; signal: AbortSignal }): LadderPorts | null {
  const queue = app.get<GameQueue | null>(GAME_QUEUE_PORT, { strict: false });
  const { prefix, ladderId, signal } = where;
  if (!queue || prefix === null) return null;
  const games = app.get(GameService, { strict: false });
  return {
    lease: () => acquireLease(queue.redis, ladderLeaseKey(prefix, ladderId), `api node (pid ${process.pid} on ${hostname()})`),
    play: async (gameId) => {
      // On shutdown the ladder must not wait for its game: GameService parks it, the next start resumes it.
      let onAbort = () => {};
      const aborted = new Promise<void>((resolve) => (onAbort = resolve));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await Promise.race([games.play(gameId), aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
      if (signal.aborted || games.closing) return { status: 'pending' };
      const game = await store.getGame(gameId);
      if (game.status === 'ended') return { status: 'ended', placements: game.placements ?? [], ...(degradedOf(game.options) ? { degraded: true } : {}) };
      throw new Error(`game ${gameId} did not finish (${game.status}); the server log says why`);
    },
  };
}
