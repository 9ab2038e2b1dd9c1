import { Controller, Get } from '@nestjs/common';
import { AgentsService, type AgentCatalog } from './agents.service.js';

/** What can sit at a table. Public: it holds names and descriptions only. */
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  list(): AgentCatalog {
    return this.agents.catalog();
  }
}
