import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { humanSeatIds } from '../../agents/seat/agent-spec.js';
import type { EventStore, SeatTokenRow } from '../../store/index.js';

/** What POST /games hands out for one human seat: the token (only ever here) and the seat page's link. */
export type HumanSeatTicket = { player_id: string; token: string; url: string };

/** 256 bits from the CSPRNG: a seat token is a capability, so it must be unguessable. */
const TOKEN_BYTES = 32;

/** What every issued token looks like (32 bytes, base64url): anything else is no seat token, with no store read. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** Whether `token` could be a seat token at all (a cheap check before any lookup). */
export const mayBeSeatToken = (token: string | undefined): token is string => token !== undefined && TOKEN_SHAPE.test(token);

/** The sha256 (hex) a seat token is stored and compared as. */
export const hashSeatToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

export { humanSeatIds } from '../../agents/seat/agent-spec.js';

/** Why a line-up with human seats is refused outside POST /games (tokens are only given out there), or null. */
export function humansRefused(agents: readonly string[], where: string): string | null {
  const seats = humanSeatIds(agents);
  return seats.length ? `${where} takes no human seats (${seats.join(', ')}): a seat's token is only given out by POST /games` : null;
}

/**
 * Draws a token for each human seat, stores its hash with the game, and returns the tickets. The
 * link carries the token in its fragment, which browsers never send to a server nor write to its
 * logs (a query string would be both).
 *
 * @example await issueSeatTokens(store, 'game_ab12', ['human', 'balanced']) // [{ player_id: 'plr_1', token, url: '/seat/game_ab12/plr_1#token=…' }]
 */
export async function issueSeatTokens(store: EventStore, gameId: string, agents: readonly string[]): Promise<HumanSeatTicket[]> {
  const tickets = humanSeatIds(agents).map((player_id) => {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    return { player_id, token, url: `/seat/${gameId}/${player_id}#token=${token}` };
  });
  const rows: SeatTokenRow[] = tickets.map((t) => ({ player_id: t.player_id, token_hash: hashSeatToken(t.token) }));
  await store.recordSeatTokens(gameId, rows);
  return tickets;
}

/**
 * The seat of `gameId` whose token this is, or null: compared as hashes in constant time, so
 * neither the stored hashes nor the timing tell anything about a token.
 */
export async function seatOfToken(store: EventStore, gameId: string, token: string | undefined): Promise<string | null> {
  if (!mayBeSeatToken(token)) return null;
  const rows = await store.readSeatTokens(gameId);
  if (rows.length === 0) return null;
  const given = Buffer.from(hashSeatToken(token), 'hex');
  let seat: string | null = null;
  for (const r of rows) {
    const stored = Buffer.from(r.token_hash, 'hex');
    if (stored.length === given.length && timingSafeEqual(stored, given)) seat = r.player_id;
  }
  return seat;
}
