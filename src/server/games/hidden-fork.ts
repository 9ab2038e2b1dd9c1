import { keepsParentDeck, lineageIn } from '../../research/fork-lineage.js';
import { GameNotFoundError, type GameRecord } from '../../store/index.js';
import type { Role } from '../auth/roles.js';

/**
 * Whether a game is hidden from this caller altogether: a fork that kept its parent's deck and
 * PRNG (`same_deck`, or made before forks had secrets) and has not ended, to anyone but an admin.
 * Its parent has ended, so the parent's seed is public and tells every card the fork will draw;
 * even its public plays would then show its hands. Until it ends it is treated as a game that
 * does not exist: 404 on every route, `game/not_found` on the socket, absent from lists, from its
 * parent's `forks` and `fork_count`, and from the public lobby.
 *
 * @example hiddenFork(sameDeckFork, 'spectator') // true while it runs
 */
export function hiddenFork(game: Pick<GameRecord, 'options' | 'status'>, role: Role): boolean {
  if (role === 'admin' || game.status === 'ended') return false;
  const fork = lineageIn(game);
  return fork !== null && keepsParentDeck(fork);
}

/** Throws GameNotFoundError (404, as for an unknown id) when the game is hidden from this caller (hiddenFork). */
export function refuseHiddenFork(game: Pick<GameRecord, 'game_id' | 'options' | 'status'>, role: Role): void {
  if (hiddenFork(game, role)) throw new GameNotFoundError(game.game_id);
}
