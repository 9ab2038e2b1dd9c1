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

/** Whether a role may see a fork's secret (what it reseeded from): like a seed, admins always, everyone once the fork has ended. */
export const seesForkSecret = (role: Role, status: GameRecord['status']): boolean => role === 'admin' || status === 'ended';

/**
 * What a caller may see of a game's record. The seed decides every hand and draw, so while the
 * game runs it is an admin's only; once it has ended anyone may have it to re-simulate the game —
 * unless `seedInPlay` says another game still deals from it (a tournament's duplicate seeds).
 * A fork's secret (`options.fork.secret`) decides its draws after the fork point the same way.
 * The hash chain's head follows seesFullHashes: private speech stays private after the end.
 *
 * @example gameView(record, 'spectator').seed // null while record.status is 'running'
 */
export function gameView(game: GameRecord, role: Role, seedInPlay = false): GameView {
  const hidden = role !== 'admin' && (game.status !== 'ended' || seedInPlay);
  // The chain's head over a deal another game still plays is a guessing oracle for that game's hands.
  const hashOpen = seesFullHashes(role, game.status) && (role === 'admin' || !seedInPlay);
  const options = withoutForkSecrets(game.options, { parent_hash: !hashOpen, secret: !seesForkSecret(role, game.status) });
  return { ...game, options, seed: hidden ? null : game.seed, seed_hidden: hidden, last_hash: hashOpen ? game.last_hash : null };
}

/**
 * A fork's options without what the caller may not see: the parent's chain hash at the fork point
 * (it hashes the same unredacted prefix the fork's own chain does, so it is hidden from whom
 * `last_hash` is) and the fork's secret (hidden from whom a running game's seed is).
 */
function withoutForkSecrets(options: GameRecord['options'], drop: { parent_hash: boolean; secret: boolean }): GameRecord['options'] {
  const fork = options['fork'];
  if (!fork || typeof fork !== 'object') return options;
  const keys = (['parent_hash', 'secret'] as const).filter((k) => drop[k] && k in fork);
  if (keys.length === 0) return options;
  return { ...options, fork: Object.fromEntries(Object.entries(fork).filter(([k]) => !(keys as readonly string[]).includes(k))) };
}
