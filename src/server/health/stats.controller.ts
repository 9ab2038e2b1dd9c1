import { Controller, Get, Inject, Optional } from '@nestjs/common';
import type { GameQueue } from '../../scale/game-queue.js';
import { GameService } from '../games/game.service.js';
import { GAME_QUEUE_PORT } from '../tokens.js';

type Stats = {
  /** Where games run: `in-process` (this server plays them) or `workers` (REDIS_URL: queued for `tiltyard worker`). */
  mode: 'in-process' | 'workers';
  /** Games playing: in this process, or on the workers (the queue's active jobs). */
  active_games: number | null;
  /** Games waiting for a slot: this process's queue, or the Redis queue's waiting + delayed jobs. */
  queue_depth: number | null;
  /** `tiltyard worker` processes connected to the queue (null in-process, or when Redis does not answer). */
  workers: number | null;
  /** Games this node follows or plays now. */
  node: { running: number; queued: number };
  redis_ok: boolean | null;
};

/** Load figures for operators and autoscalers: one small JSON object. */
@Controller('stats')
export class StatsController {
  constructor(
    private readonly games: GameService,
    @Optional() @Inject(GAME_QUEUE_PORT) private readonly queue: GameQueue | null = null,
  ) {}

  @Get()
  async stats(): Promise<Stats> {
    const { running, queued } = this.games.activity();
    const node = { running: running.length, queued: queued.length };
    if (!this.queue) return { mode: 'in-process', active_games: node.running, queue_depth: node.queued, workers: null, node, redis_ok: null };
    const s = await this.queue.state();
    return {
      mode: 'workers',
      active_games: s.queue?.active ?? null,
      queue_depth: s.queue ? s.queue.waiting + s.queue.delayed : null,
      workers: s.workers,
      node,
      redis_ok: s.redis.ok,
    };
  }
}
