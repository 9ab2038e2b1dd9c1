import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { EventStore } from '../../store/index.js';
import { requireRole } from '../auth/require-role.js';
import { roleOf, tokenOf, type Role } from '../auth/roles.js';
import type { ServerSettings } from '../config.js';
import { seatOfToken } from './seat-tokens.js';

type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Who reads a game's log: a role (requireRole's answer), or the human seat whose token this is
 * (`{seat}`), which sees that seat's view and nothing else. A token that is neither stays the
 * 401 requireRole gives; a seat token of another game is unknown here too.
 *
 * @example await roleOrSeat(store, settings, 'game_ab12', req.headers) // { seat: 'plr_2' }
 */
export async function roleOrSeat(store: EventStore, settings: ServerSettings, gameId: string, headers: RequestHeaders, atLeast: Role = 'spectator'): Promise<{ role: Role; seat?: undefined } | { seat: string; role?: undefined }> {
  const token = tokenOf(headers);
  if (token && !roleOf(settings, token).ok) {
    const seat = await seatOfToken(store, gameId, token);
    if (seat) {
      if (atLeast !== 'spectator') throw new ForbiddenException(`a seat token reads its own seat's view only (events, snapshot); this needs a ${atLeast} token`);
      return { seat };
    }
  }
  return { role: requireRole(headers, settings, atLeast) };
}

/**
 * Lets through only the token of `playerId`'s human seat: 401 with no token or one nobody issued,
 * 403 for another seat's token and for role tokens (an admin does not answer for a person).
 *
 * @example await requireSeat(store, settings, 'game_ab12', 'plr_2', req.headers)
 */
export async function requireSeat(store: EventStore, settings: ServerSettings, gameId: string, playerId: string, headers: RequestHeaders): Promise<void> {
  const token = tokenOf(headers);
  if (!token) throw new UnauthorizedException(`this needs ${playerId}'s seat token (Authorization: Bearer <token>)`);
  const seat = await seatOfToken(store, gameId, token);
  if (seat === playerId) return;
  if (seat !== null) throw new ForbiddenException(`this token holds ${seat}, not ${playerId}`);
  const role = roleOf(settings, token);
  if (role.ok) throw new ForbiddenException(`a seat's requests and decisions take that seat's token only (yours is a ${role.role} token)`);
  throw new UnauthorizedException('unknown token');
}
