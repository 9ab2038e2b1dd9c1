import type { IntegrityError } from '../store/index.js';

/**
 * What a client is told of stored data that failed its integrity check (REST's 500 body and the
 * spectate socket's `game/integrity` error alike): the game and the cause. Its seqs go to the log
 * only — a delayed audience must not learn from an error how far the log reaches.
 *
 * @example integrityMessage(e) // 'game game_ab12: its stored events fail their integrity check, …'
 */
export const integrityMessage = (e: IntegrityError): string =>
  `game ${e.gameId}: its stored ${e.part === 'events' ? 'events' : 'decisions'} fail their integrity check, so they are not served (the server logged the details)`;
