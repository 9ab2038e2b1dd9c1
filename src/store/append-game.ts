import type { GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { lifecycle } from './append.js';
import type { StoreContext } from './context.js';
import { checkBatch } from './event-rows.js';
import { ConcurrencyConflictError, InvalidInputError } from './errors.js';
import { chainHashes, GENESIS_HASH } from './hash.js';
import { coldGame, type ColdGame } from './cold-game.js';
import { readHead } from './heads.js';
import { actionLines, eventLines, snapshotLine } from './row-lines.js';
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

/**
 * A whole game checked, hashed and serialised for appendPrepared: plain strings and numbers
 * only, so it can be made on another thread (a worker playing the game) and posted over.
 */
export type PreparedGame = {
  game_id: string;
  last_seq: number;
  last_hash: string;
  /** The events rows as lines (eventLine), with their hash links. */
  events: string;
  status: string | null;
  placements: string | null;
  /** The snapshots rows as lines (snapshotLine), or null for none. */
  snapshots: string | null;
  snapshot_seq: number | null;
  /** The actions rows as lines (actionLine), or null for none. */
  actions: string | null;
  /** Instead of the rows: the game's cold form (an ended game prepared with `cold`), stored compacted at once. */
  cold?: ColdGame;
};

/**
 * Everything appendGame does before it talks to the database: checks the log (checkBatch),
 * chains its hashes from the genesis hash, and writes events, snapshots and decisions as row
 * lines (row-lines.ts; decisions validated as ActionRecord). Pure, so the CPU-heavy half of
 * storing a game can run where the game was played.
 */
export function prepareWholeGame(gameId: string, game: WholeGame, options: { cold?: boolean } = {}): PreparedGame {
  const { events } = game;
  if (events.length === 0) throw new InvalidInputError(`game ${gameId}: a whole game has at least one event`);
  checkBatch(gameId, 0, events);
  const hashes = chainHashes(GENESIS_HASH, events);
  const life = lifecycle(events);
  const last = game.snapshots[game.snapshots.length - 1];
  // Only an ended game is compacted (as compactGame would): one that stopped short stays hot.
  const cold = options.cold === true && life.status === 'ended';
  return {
    game_id: gameId,
    last_seq: events.length,
    last_hash: hashes[hashes.length - 1]!,
    events: cold ? '' : eventLines(events, GENESIS_HASH, hashes),
    status: life.status,
    placements: life.placements,
    snapshots: game.snapshots.length ? game.snapshots.map((s) => snapshotLine(gameId, s.seq, s)).join('\n') : null,
    snapshot_seq: last ? last.seq : null,
    actions: cold ? null : actionLines(game.actions),
    ...(cold ? { cold: coldGame(gameId, events, hashes, game.actions) } : {}),
  };
}

const APPEND_GAME_SQL = `SELECT tiltyard_append_v2($1, 0, $2, $3, $4, $5, $6, $7::jsonb, $8, $9) AS moved`;
const APPEND_COLD_SQL = `SELECT tiltyard_append_cold_v1($1, $2, $3, $4, $5::jsonb, $6, $7::json, $8::int, $9, $10) AS moved`;

/**
 * Stores a prepared whole game (prepareWholeGame) in one statement (one transaction, one round
 * trip; tiltyard_append_v2 from seq 0): every event with its hash links, the game's final status and
 * placements, its snapshots and its decisions. The game must have been created and hold no
 * events yet (the statement's guard checks that; the head is read only when it fails). The same
 * log again is a success with `appended: 0` (the head's hash proves it is the same log); a log
 * that is already elsewhere is a ConcurrencyConflictError.
 */
export async function appendPrepared(ctx: StoreContext, gameId: string, game: PreparedGame): Promise<AppendResult> {
  if (game.game_id !== gameId) throw new InvalidInputError(`a game prepared for ${game.game_id} cannot be stored as ${gameId}`);
  const last = { seq: game.last_seq, hash: game.last_hash };
  const c = game.cold;
  const [out] = c
    ? await ctx.sql.rows<{ moved: boolean }>(APPEND_COLD_SQL, [gameId, GENESIS_HASH, last.seq, last.hash, game.placements, game.snapshots, c.segments, c.actions_count, c.actions_seal, c.actions_data])
    : await ctx.sql.rows<{ moved: boolean }>(APPEND_GAME_SQL, [gameId, GENESIS_HASH, last.seq, last.hash, game.events, game.status, game.placements, game.snapshots, game.actions]);
  if (out?.moved !== true) {
    const now = await readHead(ctx, gameId);
    if (now.seq === last.seq && now.hash === last.hash) return { last_seq: last.seq, last_hash: last.hash, appended: 0, snapshot_seq: null };
    throw new ConcurrencyConflictError(gameId, 0, now.seq);
  }
  ctx.heads.delete(gameId);
  return { last_seq: last.seq, last_hash: last.hash, appended: last.seq, snapshot_seq: game.snapshot_seq };
}

/**
 * Stores a whole game's log at once: prepareWholeGame, then appendPrepared.
 *
 * @example await appendGame(ctx, id, { events: run.events, actions, snapshots: [] })
 */
export async function appendGame(ctx: StoreContext, gameId: string, game: WholeGame, options: { cold?: boolean } = {}): Promise<AppendResult> {
  return appendPrepared(ctx, gameId, prepareWholeGame(gameId, game, options));
}
