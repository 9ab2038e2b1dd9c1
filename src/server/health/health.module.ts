import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { StatsController } from './stats.controller.js';

@Module({ controllers: [HealthController, StatsController] })
export class HealthModule {}
