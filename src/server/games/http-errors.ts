import { BadRequestException, ConflictException, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { GameNotFoundError, InvalidInputError } from '../../store/index.js';
import { GameServiceClosedError, HumanSeatsUnavailableError } from './game.service.js';
import { ForkWouldLeakError } from './fork-options.js';

/**
 * Awaits a service call and turns the domain failures a caller can cause into HTTP answers:
 * an unknown game → 404, a malformed cursor → 400, a fork that would leak a held-back game → 409,
 * a server shutting down → 503. Anything else
 * stays a 500 (and is logged by Nest).
 *
 * @example return await orHttp(this.games.get(id))
 */
export async function orHttp<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (e) {
    if (e instanceof GameNotFoundError) throw new NotFoundException(`no game ${e.gameId} (GET /games lists them)`);
    if (e instanceof InvalidInputError) throw new BadRequestException(e.message);
    if (e instanceof GameServiceClosedError) throw new ServiceUnavailableException(e.message);
    if (e instanceof HumanSeatsUnavailableError) throw new BadRequestException(e.message);
    if (e instanceof ForkWouldLeakError) throw new ConflictException(e.message);
    throw e;
  }
}
