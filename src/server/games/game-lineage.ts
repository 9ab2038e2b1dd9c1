import { keepsParentDeck, lineageIn, reseedOf, type ForkLineage } from '../../research/fork-lineage.js';
import { forkPointRounds } from '../../research/fork-rounds.js';
import { GameNotFoundError, type EventStore, type GameRecord } from '../../store/index.js';
import type { ForkSummary } from '../../view/lineage.js';
import type { CommitLog } from '../../live/commit-log.js';
import type { Role } from '../auth/roles.js';
import { seesForkSecret, type GameView } from './game-view.js';
import { hiddenFork } from './hidden-fork.js';
import { visibleGame } from './visible-game.js';

/** A fork under its parent in GET /games/:id, as the caller may see the fork. */
export type ForkEntry = ForkSummary & { created_at: string };

/** The game a fork came from, with its status as the caller sees it (null: no longer stored, or hidden from the caller). */
export type ParentEntry = { game_id: string; seq: number; round: number | null; same_deck: boolean; reseed?: number; status: GameRecord['status'] | null };

/** What GET /games/:id adds about lineage: the parent of a fork, and the game's own forks. */
export type GameLineage = { parent: ParentEntry | null; forks: ForkEntry[]; fork_count: number };

/** What a fork's lineage entry says of its draws: whether it kept the parent's deck, and its reseed to whom sees the fork ended (or is an admin). */
const draws = (fork: ForkLineage, role: Role, status: GameRecord['status'] | null) => {
  const reseed = status !== null && seesForkSecret(role, status) ? reseedOf(fork) : undefined;
  return { same_deck: keepsParentDeck(fork), ...(reseed !== undefined ? { reseed } : {}) };
};

/**
 * A game's parent and forks for the caller who sees it as `view`. Forks are games anyone may list
 * (GET /games), so whoever sees the game sees its forks — but never past what they see of the
 * game: a caller who sees it as of a delayed head learns of no fork branching after that head
 * (not even how many), a non-admin of no fork hidden from them (hiddenFork: a kept deck, not
 * ended), and each fork's status, placements and reseed are as that caller sees the fork (its own
 * hold-back applied; the reseed, like a seed, once it has ended). The first MAX_FORKS_LISTED
 * forks, oldest first; `fork_count` says how many the caller may know of.
 *
 * @example const { forks, fork_count } = await gameLineage(store, game, view, 'spectator', Date.now(), bus.commits)
 */
export async function gameLineage(store: EventStore, game: GameRecord, view: Pick<GameView, 'last_seq' | 'status'>, role: Role, now: number, commits: CommitLog): Promise<GameLineage> {
  const own = lineageIn(game);
  const page = await store.forksOf(game.game_id, { upToSeq: view.last_seq, withoutKeptDecks: role !== 'admin' });
  const forks = page.forks.flatMap((f) => {
    const fork = lineageIn(f);
    return fork ? [{ record: f, fork }] : [];
  });
  const rounds = await forkPointRounds(store, [...forks.map((f) => ({ game_id: f.record.game_id, fork: f.fork })), ...(own ? [{ game_id: game.game_id, fork: own }] : [])]);
  const seen = await Promise.all(forks.map((f) => visibleGame(store, f.record, role, now, commits)));
  const entries = forks.map(({ record, fork }, i): ForkEntry => {
    const v = seen[i]!;
    return { game_id: record.game_id, seq: fork.seq, round: rounds.get(record.game_id) ?? null, ...draws(fork, role, v.status), status: v.status, seats: v.seats, placements: v.placements, created_at: record.created_at };
  });
  return { parent: own ? await parentEntry(store, own, rounds.get(game.game_id) ?? null, draws(own, role, view.status), role, now, commits) : null, forks: entries, fork_count: page.total };
}

/** A fork's parent as the caller sees it: its status, or null when it is gone or hidden from them (a fork of a hidden fork). */
async function parentEntry(store: EventStore, fork: ForkLineage, round: number | null, own: ReturnType<typeof draws>, role: Role, now: number, commits: CommitLog): Promise<ParentEntry> {
  const parent = await store.getGame(fork.parent_game_id).catch((e: unknown) => {
    if (e instanceof GameNotFoundError) return null;
    throw e;
  });
  const status = parent && !hiddenFork(parent, role) ? (await visibleGame(store, parent, role, now, commits)).status : null;
  return { game_id: fork.parent_game_id, seq: fork.seq, round, ...own, status };
}
