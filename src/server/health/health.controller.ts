import { Controller, Get, Inject } from '@nestjs/common';
import { RULES_VERSION } from '../../game/index.js';
import type { EventStore } from '../../store/index.js';
import { STORE } from '../tokens.js';

const started = Date.now();

/** Liveness and what this server runs on. */
@Controller('health')
export class HealthController {
  constructor(@Inject(STORE) private readonly store: EventStore) {}

  @Get()
  health(): { status: 'ok'; rules_version: string; backend: string; uptime_s: number } {
    return { status: 'ok', rules_version: RULES_VERSION, backend: this.store.backend, uptime_s: Math.round((Date.now() - started) / 1000) };
  }
}
