import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { EventStore } from '../../store/index.js';
import { roleOf, tokenOf } from '../auth/roles.js';
import type { ServerSettings } from '../config.js';
import { seatOfToken } from './seat-tokens.js';

type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/**
 * The seat a request's token holds in `gameId`, or null when the token is no seat's (an admin or
 * researcher token, or none): unknown tokens stay a 401 for requireRole to give.
 */
export async function seatHeld(store: EventStore, gameId: string, headers: RequestHeaders): Promise<string | null> {
  return seatOfToken(store, gameId, tokenOf(headers));
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
