import { createHash } from 'node:crypto';

/**
 * The id of a tournament's game: derived from the tournament id and the schedule key, so a resumed
 * runner finds the games a killed one created (and creating one again is a no-op).
 *
 * @example tournamentGameId('trn_1a2b3c', 'r0-t3-d0-p1') // 'game_t_…' (always the same)
 */
export function tournamentGameId(tournamentId: string, key: string): string {
  const digest = createHash('sha256').update(`${tournamentId}\u0000${key}`).digest('hex').slice(0, 20);
  return `game_t_${digest}`;
}
