import { setImmediate as nextTurn } from 'node:timers/promises';
import { compressAsync, SEGMENT_EVENTS, segmentJson, segmentSeal } from './cold-codec.js';
import type { StoreContext } from './context.js';
import { StoreError } from './errors.js';
import { chainHashes, GENESIS_HASH } from './hash.js';
import { fromRow, type StoredRow } from './event-rows.js';
import { readRows } from './reads.js';
import { actionsSeal } from './verify-cold.js';

/** What compacting one game did. */
export type CompactOutcome = 'compacted' | 'already' | 'not_ended';

const GAME_SQL = `SELECT status, last_seq, last_hash, compacted_at IS NOT NULL AS cold FROM games WHERE game_id = $1`;

/** actions rows in the order readDecisions reads them, json as the text jsonb gives back. */
const ACTIONS_SQL = `SELECT seq_before, player_id, attempt, turn, phase, "window", raw::text AS raw,
    validated::text AS validated, accepted, rejection_code,
    to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts
  FROM actions WHERE game_id = $1 ORDER BY seq_before, attempt, player_id`;

/**
 * The move to cold storage, one statement (so one transaction: a crash leaves the game wholly hot
 * or wholly cold). It happens only if the game is still ended, uncompacted, at the head the
 * segments were made from, and holds exactly the actions read — otherwise nothing is written.
 */
const MOVE_SQL = `WITH g AS (
    UPDATE games SET compacted_at = now()
     WHERE game_id = $1 AND compacted_at IS NULL AND status = 'ended' AND last_seq = $2 AND last_hash = $3
       AND (SELECT count(*) FROM actions WHERE game_id = $1) = $5::int
    RETURNING game_id
  ), s AS (
    INSERT INTO cold_segments (game_id, first_seq, last_seq, last_turn, seal, last_hash, data)
    SELECT g.game_id, x.first_seq, x.last_seq, x.last_turn, x.seal, x.last_hash, decode(x.data, 'base64')
      FROM g, json_to_recordset($4::json) AS x(first_seq int, last_seq int, last_turn int, seal text, last_hash text, data text)
  ), a AS (
    INSERT INTO cold_actions (game_id, count, seal, data)
    SELECT g.game_id, $5::int, $6, decode($7, 'base64') FROM g WHERE $5::int > 0
  ), de AS (
    DELETE FROM events WHERE game_id IN (SELECT game_id FROM g)
  ), da AS (
    DELETE FROM actions WHERE game_id IN (SELECT game_id FROM g)
  )
  SELECT count(*)::int AS moved FROM g`;

type ActionRow = Record<string, unknown>;

/**
 * The segments of a whole log, each sealed onto the chain recomputed (and checked) from genesis.
 * One segment per turn of the event loop, brotli on the thread pool: a server compacting in the
 * background holds its loop ~20 ms at a time, not the ~120 ms a whole game takes.
 */
async function segmentsOf(gameId: string, rows: readonly StoredRow[], headHash: string) {
  const out: Array<{ first_seq: number; last_seq: number; last_turn: number; seal: string; last_hash: string; data: string }> = [];
  let prev = GENESIS_HASH;
  for (let i = 0; i < rows.length; i += SEGMENT_EVENTS) {
    await nextTurn();
    const part = rows.slice(i, i + SEGMENT_EVENTS);
    const hashes = chainHashes(prev, part.map((r) => fromRow(gameId, r)));
    // Sealing a tampered log would launder it: compaction refuses a chain that does not verify.
    part.forEach((r, k) => {
      if (r.prev_hash !== (k === 0 ? prev : hashes[k - 1]) || r.hash !== hashes[k])
        throw new StoreError(`game ${gameId}: event ${r.seq} does not verify; not compacting it`);
    });
    prev = hashes[hashes.length - 1]!;
    const data = await compressAsync(segmentJson(gameId, part));
    const last = part[part.length - 1]!;
    out.push({ first_seq: part[0]!.seq, last_seq: last.seq, last_turn: last.turn, seal: segmentSeal(prev, data), last_hash: prev, data: data.toString('base64') });
  }
  if (prev !== headHash) throw new StoreError(`game ${gameId}: its log does not end at the recorded head; not compacting it`);
  return out;
}

/**
 * Moves an ended game's events and actions to cold storage (cold_segments, cold_actions): every
 * read (read, stateAt, verifyChain, readActions) answers the same afterwards. Idempotent: a
 * compacted game is 'already'; a game not ended is left hot ('not_ended'). A game whose hot chain
 * does not verify is refused (StoreError), never sealed.
 *
 * @example await compactGame(ctx, 'game_s1') // 'compacted'
 */
export async function compactGame(ctx: StoreContext, gameId: string): Promise<CompactOutcome> {
  const [game] = await ctx.sql.rows<{ status: string; last_seq: number; last_hash: string; cold: boolean }>(GAME_SQL, [gameId]);
  if (!game) throw new StoreError(`no game ${gameId}`);
  if (game.cold) return 'already';
  if (game.status !== 'ended') return 'not_ended';
  const rows = await readRows(ctx, gameId, 0);
  if (rows.length !== game.last_seq || rows.some((r, i) => r.seq !== i + 1))
    throw new StoreError(`game ${gameId}: its log has gaps; not compacting it`);
  const segments = await segmentsOf(gameId, rows, game.last_hash);
  const actions = await ctx.sql.rows<ActionRow>(ACTIONS_SQL, [gameId]);
  const actionData = await compressAsync(JSON.stringify(actions.map(actionTuple)));
  const [moved] = await ctx.sql.rows<{ moved: number }>(MOVE_SQL, [
    gameId,
    game.last_seq,
    game.last_hash,
    JSON.stringify(segments),
    actions.length,
    actionsSeal(game.last_hash, actionData),
    actionData.toString('base64'),
  ]);
  if (moved?.moved === 1) return 'compacted';
  // Something moved under us (a concurrent compaction, most likely): say where it stands now.
  const [now] = await ctx.sql.rows<{ cold: boolean }>(GAME_SQL, [gameId]);
  if (now?.cold) return 'already';
  throw new StoreError(`game ${gameId} changed while it was being compacted; try again`);
}

/** The column order of a cold action tuple (ActionRow's keys as ACTIONS_SQL names them). */
export const ACTION_COLUMNS = ['seq_before', 'player_id', 'attempt', 'turn', 'phase', 'window', 'raw', 'validated', 'accepted', 'rejection_code', 'ts'] as const;

const actionTuple = (r: ActionRow) => ACTION_COLUMNS.map((k) => r[k] ?? null);
