import { Module } from '@nestjs/common';
import { SpectateGateway } from './spectate.gateway.js';
import { SpectateService } from './spectate.service.js';

/** The socket.io spectator stream at `/spectate` (GameBus comes from the global GamesModule). */
@Module({ providers: [SpectateGateway, SpectateService] })
export class SpectateModule {}
