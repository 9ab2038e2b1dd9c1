import { fold, initialState, pinnedConfig, type GameConfigInput, type GameState } from '../game/index.js';
import { checkColdSeals } from './cold-reads.js';
import type { StoreContext } from './context.js';
import { GameNotFoundError, SeqOutOfRangeError } from './errors.js';
import { readHead } from './heads.js';
import { readEvents } from './reads.js';

/** Whether an append taking the log from `fromSeq` to `toSeq` crosses a multiple of `every`. */
export function crossesBoundary(every: number, fromSeq: number, toSeq: number): boolean {
  return Math.floor(toSeq / every) > Math.floor(fromSeq / every);
}

const SNAPSHOT_SQL = `SELECT state FROM snapshots WHERE game_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1`;

/** The state before any event: from the game's stored configuration and seed. */
export async function genesisState(ctx: StoreContext, gameId: string): Promise<GameState> {
  const game = await ctx.prisma.game.findUnique({
    where: { gameId },
    select: { config: true, seed: true, rulesVersion: true },
  });
  if (!game) throw new GameNotFoundError(gameId);
  return initialState(pinnedConfig(game.config as GameConfigInput, game.rulesVersion), Number(game.seed));
}

/**
 * The game state right after event `seq` (the latest when omitted; 0 = before any event): the
 * nearest snapshot at or below `seq`, with the events after it folded on by the engine's own
 * evolve. At most snapshotEvery − 1 + (the largest batch) events are folded.
 *
 * @example const s = await stateAt(ctx, 'game_s1', 120); s.seq === 120
 */
export async function stateAt(ctx: StoreContext, gameId: string, seq?: number): Promise<GameState> {
  const target = seq ?? (await readHead(ctx, gameId)).seq;
  if (!Number.isSafeInteger(target) || target < 0)
    throw new SeqOutOfRangeError(gameId, target, (await readHead(ctx, gameId)).seq);
  const [snap] = await ctx.sql.rows<{ state: string }>(SNAPSHOT_SQL, [gameId, target]);
  const base = snap ? (JSON.parse(snap.state) as GameState) : await genesisState(ctx, gameId);
  // A state straight from a snapshot reads no event, but it is still a read of the game: one whose
  // cold log fails its seals is refused here too (a query, no segment bytes moved).
  if (base.seq === target) return checkColdSeals(ctx, gameId).then(() => base);
  const events = await readEvents(ctx, gameId, base.seq, target, target - base.seq);
  if (base.seq + events.length !== target)
    throw new SeqOutOfRangeError(gameId, target, (await readHead(ctx, gameId)).seq);
  return fold(base, events);
}
