import { Controller, Get, Inject, Optional } from '@nestjs/common';
import { RULES_VERSION } from '../../game/index.js';
import type { GameQueue, QueueState } from '../../scale/game-queue.js';
import type { EventStore } from '../../store/index.js';
import { GAME_QUEUE_PORT, STORE } from '../tokens.js';

const started = Date.now();

type Health = {
  status: 'ok' | 'degraded';
  rules_version: string;
  backend: string;
  uptime_s: number;
  /** Only with REDIS_URL: whether Redis answers, the queue's counts and how many workers listen. */
  scale?: QueueState;
};

/**
 * Liveness and what this server runs on. Scaled out, a node whose Redis is away still answers
 * (it serves stored games and replays) with status `degraded`: no new steps reach its spectators
 * and no game can be queued until Redis is back.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(STORE) private readonly store: EventStore,
    @Optional() @Inject(GAME_QUEUE_PORT) private readonly queue: GameQueue | null = null,
  ) {}

  @Get()
  async health(): Promise<Health> {
    const base = { rules_version: RULES_VERSION, backend: this.store.backend, uptime_s: Math.round((Date.now() - started) / 1000) };
    if (!this.queue) return { status: 'ok', ...base };
    const scale = await this.queue.state();
    return { status: scale.redis.ok ? 'ok' : 'degraded', ...base, scale };
  }
}
