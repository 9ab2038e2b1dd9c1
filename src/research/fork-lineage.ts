import { z } from 'zod';
import { seedRng } from '../game/rng.js';
import type { GameState } from '../game/index.js';
import { GameId, type GameEvent } from '../protocol/index.js';
import { eventHash, GENESIS_HASH, type GameRecord } from '../store/index.js';
import { RunnerError } from '../runner/runner-errors.js';

/**
 * What a fork records of where it came from, in its game's `options.fork` (JSON, so lineage is
 * one `options->'fork'->>'parent_game_id'` away in SQL and needs no migration): the parent, the
 * fork point (the seq after which the fork's own events start), the parent's chain hash there
 * (so verify notices a parent altered since), and the secret its hidden state was reseeded from.
 *
 * `secret`: the fork's first own event (seq + 1) is reseedHidden's `hidden_reseeded` from it — the
 * undrawn deck shuffled again and a new PRNG — and its seats' agents draw from it, not from the
 * parent's seed (which is public once the parent has ended). It is as secret as a running game's
 * seed (forkView). Absent: the fork kept the parent's deck and PRNG (`--same-deck`), so the
 * parent's seed tells its draws, and the fork is shown to admins only until it ends.
 * `reseed`: forks made before secrets: a PRNG-only reseed no event records (the deck kept its order).
 */
export const ForkLineage = z
  .object({
    parent_game_id: GameId,
    seq: z.number().int().min(1),
    parent_hash: z.string().regex(/^[0-9a-f]{64}$/),
    secret: z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).optional(),
    reseed: z.number().int().optional(),
  })
  .refine((f) => f.secret === undefined || f.reseed === undefined, 'a fork records a secret or a (legacy) reseed, not both');
export type ForkLineage = z.infer<typeof ForkLineage>;

/**
 * Whether a fork kept its parent's deck order (`--same-deck`, and forks made before secrets): once
 * the parent's seed is public, anyone can tell its draws, so it is shown to admins only until it ends.
 */
export const keepsParentDeck = (fork: Pick<ForkLineage, 'secret'>): boolean => fork.secret === undefined;

/** The number a fork's lineage shows as its `reseed` (to whom may see it): its secret, or a legacy reseed. */
export const reseedOf = (fork: Pick<ForkLineage, 'secret' | 'reseed'>): number | undefined => fork.secret ?? fork.reseed;

/**
 * The seed a game's seats' agents derive their PRNGs from (built-ins, the mock LLM): the game's,
 * except in a reseeded fork, whose agents would otherwise be as predictable as its parent's seed.
 */
export const seatSeed = (gameSeed: number, fork: Pick<ForkLineage, 'secret'> | null): number => fork?.secret ?? gameSeed;

/** A game's fork lineage, or null when it is no fork; a malformed one is a runner error (no guessing). */
export function forkOf(game: Pick<GameRecord, 'game_id' | 'options'>): ForkLineage | null {
  const raw = game.options['fork'];
  if (raw === undefined) return null;
  const parsed = ForkLineage.safeParse(raw);
  if (!parsed.success) throw new RunnerError(`game ${game.game_id} records a malformed fork lineage: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** A game's fork lineage, or null when it is no fork or records a malformed one (for listings, which verify leaves to verify). */
export function lineageIn(game: Pick<GameRecord, 'options'>): ForkLineage | null {
  const parsed = ForkLineage.safeParse(game.options['fork']);
  return parsed.success ? parsed.data : null;
}

/**
 * A legacy fork's reseed (forks made before secrets), applied to the state at its fork point
 * (no-op without one): the PRNG state seeded from `reseed:S`, outside the log. Kept so that such
 * forks still replay and verify; new forks reseed with reseedHidden, an event.
 */
export function applyLegacyReseed(state: GameState, fork: Pick<ForkLineage, 'reseed'> | null): void {
  if (fork?.reseed !== undefined) state.rng = seedRng(`reseed:${fork.reseed}`);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The JSON of an event of game `fromId` as it reads under game `toId`: every id the engine derives
 * from the game id (`game_<x>`, and `evt_<x>_…`, `cmt_<x>_…`, `act_<x>_…`, `req_<x>_…`: a JSON
 * string starting with a prefix, `_`, the id's stem, then `_` or its end) renamed. Nothing else
 * changes — seq, turn, phase, ts, rng, texts, key order — so a fork's prefix, read under its
 * parent's id, is the parent's events byte for byte.
 *
 * @example renamedJson(forkEvent, 'game_f1', 'game_p1') === JSON.stringify(parentEvent)
 */
export function renamedJson(event: GameEvent, fromId: string, toId: string): string {
  const json = JSON.stringify(event);
  if (fromId === toId) return json;
  return json.replace(new RegExp(`"([a-z]+)_${escapeRe(fromId.slice(5))}(?=[_"])`, 'g'), `"$1_${toId.slice(5)}`);
}

/** The hash chain's head over `events`, from the genesis hash. */
export const chainHead = (events: readonly GameEvent[]): string => events.reduce((prev, e) => eventHash(prev, e), GENESIS_HASH);
