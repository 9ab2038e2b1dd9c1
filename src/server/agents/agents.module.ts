import { Module } from '@nestjs/common';
import { AgentsController } from './agents.controller.js';
import { AgentsService } from './agents.service.js';

/** GET /agents. The service reads the default skill roots and the process environment. */
@Module({ controllers: [AgentsController], providers: [{ provide: AgentsService, useFactory: () => new AgentsService() }] })
export class AgentsModule {}
