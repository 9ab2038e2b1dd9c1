import { ConflictException, NotFoundException } from '@nestjs/common';
import { TournamentNotFoundError } from '../../store/index.js';
import { orHttp } from '../games/http-errors.js';
import { TournamentBusyError } from './tournaments.service.js';

/**
 * orHttp for the tournament routes: an unknown tournament is a 404 naming it, and everything
 * orHttp maps (a malformed cursor → 400, a server shutting down → 503) is mapped the same way.
 *
 * @example return await tournamentOrHttp(this.tournaments.view(id, role))
 */
export async function tournamentOrHttp<T>(call: Promise<T>): Promise<T> {
  try {
    return await orHttp(call);
  } catch (e) {
    if (e instanceof TournamentNotFoundError) throw new NotFoundException(`no tournament ${e.tournamentId} (GET /tournaments lists them)`);
    if (e instanceof TournamentBusyError) throw new ConflictException(e.message);
    throw e;
  }
}
