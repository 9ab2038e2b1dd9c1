import type { GameRecord } from '../../store/index.js';
import type { Role } from '../auth/roles.js';

/** A game as the API returns it: the stored record, its seed null while hidden from the caller. */
export type GameView = Omit<GameRecord, 'seed'> & {
  seed: number | null;
  /** True when the seed is withheld from this caller. */
  seed_hidden: boolean;
};

/**
 * What a caller may see of a game's record. The seed decides every hand and draw, so while the
 * game runs it is an admin's only; once it has ended anyone may have it to re-simulate the game —
 * unless `seedInPlay` says another game still deals from it (a tournament's duplicate seeds).
 *
 * @example gameView(record, 'spectator').seed // null while record.status is 'running'
 */
export function gameView(game: GameRecord, role: Role, seedInPlay = false): GameView {
  const hidden = role !== 'admin' && (game.status !== 'ended' || seedInPlay);
  return { ...game, seed: hidden ? null : game.seed, seed_hidden: hidden };
}
