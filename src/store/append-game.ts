import type { GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { actionRowsJson } from './actions.js';
import { lifecycle } from './append.js';
import type { StoreContext } from './context.js';
import { checkBatch, toRow } from './event-rows.js';
import { ConcurrencyConflictError, InvalidInputError } from './errors.js';
import { chainHashes, GENESIS_HASH } from './hash.js';
import { readHead } from './heads.js';
import { snapshotJson } from './snapshots.js';
import type { ActionRecord, AppendResult } from './types.js';

/** A whole game played in memory: its log, the decisions behind it, and states to snapshot. */
export type WholeGame = {
  events: readonly GameEvent[];
  actions: readonly ActionRecord[];
  /**
   * The states right after the steps that crossed a multiple of snapshotEvery (as per-step appends
   * would have snapshotted them: see crossesBoundary), so replay costs the same either way.
   */
  snapshots: readonly GameState[];
};

const APPEND_GAME_SQL = `SELECT tiltyard_append_game_v1($1, $2, $3, $4, $5::json, $6, $7::jsonb, $8::json, $9::json) AS moved`;

/**
 * Stores a whole game's log at once — every event with its hash links, the game's final status
 * and placements, its snapshots and its decisions — in one statement (one transaction, one round
 * trip; tiltyard_append_game_v1). The game must have been created and hold no events yet (the
 * statement's guard checks that; the head is read only when it fails). The same
 * log again is a success with `appended: 0` (the head's hash proves it is the same log); a log
 * that is already elsewhere is a ConcurrencyConflictError.
 *
 * @example await appendGame(ctx, id, { events: run.events, actions, snapshots: [] })
 */
export async function appendGame(ctx: StoreContext, gameId: string, game: WholeGame): Promise<AppendResult> {
  const { events } = game;
  if (events.length === 0) throw new InvalidInputError(`game ${gameId}: a whole game has at least one event`);
  checkBatch(gameId, 0, events);
  const hashes = chainHashes(GENESIS_HASH, events);
  const last = { seq: events.length, hash: hashes[hashes.length - 1]! };
  const same = (h: { seq: number; hash: string }) => h.seq === last.seq && h.hash === last.hash;
  const rows = events.map((e, i) => toRow(e, i === 0 ? GENESIS_HASH : hashes[i - 1]!, hashes[i]!));
  const life = lifecycle(events);
  const snapshots = `[${game.snapshots.map((s) => snapshotJson(gameId, s.seq, s)).join(',')}]`;
  const actions = game.actions.length ? actionRowsJson(game.actions) : null;
  const [out] = await ctx.sql.rows<{ moved: boolean }>(APPEND_GAME_SQL, [gameId, GENESIS_HASH, last.seq, last.hash, JSON.stringify(rows), life.status, life.placements, snapshots, actions]);
  if (out?.moved !== true) {
    const now = await readHead(ctx, gameId);
    if (same(now)) return { last_seq: last.seq, last_hash: last.hash, appended: 0, snapshot_seq: null };
    throw new ConcurrencyConflictError(gameId, 0, now.seq);
  }
  ctx.heads.delete(gameId);
  const snapSeqs = game.snapshots.map((s) => s.seq);
  return { last_seq: last.seq, last_hash: last.hash, appended: events.length, snapshot_seq: snapSeqs.length ? snapSeqs[snapSeqs.length - 1]! : null };
}
