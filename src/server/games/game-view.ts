import type { GameRecord } from '../../store/index.js';
import type { Role } from '../auth/roles.js';

/** A game as the API returns it: the stored record, its seed and hash null while hidden from the caller. */
export type GameView = Omit<GameRecord, 'seed' | 'last_hash'> & {
  seed: number | null;
  /** True when the seed is withheld from this caller. */
  seed_hidden: boolean;
  /**
   * The head of the hash chain, or null for whom it is hidden. The chain hashes the unredacted
   * events (secret plans, face-down cards, private speech, the PRNG), so whoever holds it and
   * the public events can test guesses at the hidden parts: admins only, and researchers once the
   * game is over (they see everything then). Spectators check drift with their own view's
   * `state_hash` instead.
   */
  last_hash: string | null;
};

/** Whether a role may see hashes over a game's unredacted events (the chain, full-state hashes). */
export const seesFullHashes = (role: Role, status: GameRecord['status']): boolean => role === 'admin' || (role === 'researcher' && status === 'ended');

/**
 * What a caller may see of a game's record. The seed decides every hand and draw, so while the
 * game runs it is an admin's only; once it has ended anyone may have it to re-simulate the game —
 * unless `seedInPlay` says another game still deals from it (a tournament's duplicate seeds).
 * The hash chain's head follows seesFullHashes: private speech stays private after the end.
 *
 * @example gameView(record, 'spectator').seed // null while record.status is 'running'
 */
export function gameView(game: GameRecord, role: Role, seedInPlay = false): GameView {
  const hidden = role !== 'admin' && (game.status !== 'ended' || seedInPlay);
  // The chain's head over a deal another game still plays is a guessing oracle for that game's hands.
  const hashOpen = seesFullHashes(role, game.status) && (role === 'admin' || !seedInPlay);
  return { ...game, options: hashOpen ? game.options : withoutParentHash(game.options), seed: hidden ? null : game.seed, seed_hidden: hidden, last_hash: hashOpen ? game.last_hash : null };
}

/**
 * A fork's options without the parent's chain hash at the fork point: it hashes the same
 * unredacted prefix the fork's own chain does, so it is hidden from whom `last_hash` is.
 */
function withoutParentHash(options: GameRecord['options']): GameRecord['options'] {
  const fork = options['fork'];
  if (!fork || typeof fork !== 'object' || !('parent_hash' in fork)) return options;
  const { parent_hash: _hidden, ...rest } = fork as Record<string, unknown>;
  return { ...options, fork: rest };
}
