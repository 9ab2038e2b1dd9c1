import { z } from 'zod';
import { seedRng } from '../game/rng.js';
import type { GameState } from '../game/index.js';
import { GameId, type GameEvent } from '../protocol/index.js';
import { eventHash, GENESIS_HASH, type GameRecord } from '../store/index.js';
import { RunnerError } from '../runner/runner-errors.js';

/**
 * What a fork records of where it came from, in its game's `options.fork` (JSON, so lineage is
 * one `options->'fork'->>'parent_game_id'` away in SQL and needs no migration): the parent, the
 * fork point (the seq after which the fork's own decisions start), the parent's chain hash there
 * (so verify notices a parent altered since), and the reseed, if any, applied at the fork point.
 */
export const ForkLineage = z.object({
  parent_game_id: GameId,
  seq: z.number().int().min(1),
  parent_hash: z.string().regex(/^[0-9a-f]{64}$/),
  reseed: z.number().int().optional(),
});
export type ForkLineage = z.infer<typeof ForkLineage>;

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
 * The PRNG state `--reseed S` puts in the game at the fork point: a pure function of S (prefixed
 * so that reseeding with a game's own seed does not replay its opening draws).
 */
export const reseededRng = (reseed: number) => seedRng(`reseed:${reseed}`);

/** Applies a fork's reseed to the state at its fork point (no-op without one). */
export function applyReseed(state: GameState, fork: Pick<ForkLineage, 'reseed'> | null): void {
  if (fork?.reseed !== undefined) state.rng = reseededRng(fork.reseed);
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
