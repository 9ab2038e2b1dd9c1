import { decompress, sealOf, sha256 } from './cold-codec.js';
import { ACTION_COLUMNS } from './compact.js';
import type { StoreContext } from './context.js';
import { IntegrityError } from './errors.js';

/**
 * One actions row as researchers and replay read it: raw/validated as the text of their jsonb (SQL
 * NULL: null), ts in Date#toISOString form.
 */
export type ActionRow = {
  seq_before: number;
  player_id: string;
  attempt: number;
  turn: number;
  phase: string;
  window: string;
  raw: string | null;
  validated: string | null;
  accepted: boolean;
  rejection_code: string | null;
  ts: string;
};

const HOT_SQL = `SELECT seq_before, player_id, attempt, turn, phase, "window", raw::text AS raw,
    validated::text AS validated, accepted, rejection_code,
    to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts
  FROM actions WHERE game_id = $1 ORDER BY seq_before, attempt, player_id`;
const COLD_SQL = `SELECT c.count, c.seal, encode(c.data, 'base64') AS data, g.last_seq, g.last_hash
  FROM cold_actions c JOIN games g USING (game_id) WHERE c.game_id = $1`;

/** A boolean as the adapters read it back (true, or PostgreSQL's text 't'/'true'). */
export const bool = (v: unknown): boolean => v === true || v === 't' || v === 'true';

type ActionKey = { seq_before: number; attempt: number; player_id: string };

/** readActions' order: (seq_before, attempt, player_id). */
export const byOrder = (a: ActionKey, b: ActionKey): number =>
  a.seq_before - b.seq_before || a.attempt - b.attempt || (a.player_id < b.player_id ? -1 : a.player_id > b.player_id ? 1 : 0);

/**
 * A game's actions rows in (seq_before, attempt, player_id) order, hot or compacted alike (and
 * both, should a decision be recorded after its game was compacted).
 *
 * @example (await readActions(ctx, 'game_s1')).filter((a) => !a.accepted)
 */
export async function readActions(ctx: StoreContext, gameId: string): Promise<ActionRow[]> {
  const hot = (await ctx.sql.rows<ActionRow>(HOT_SQL, [gameId])).map((r) => ({ ...r, accepted: bool(r.accepted) }));
  const rows = await readColdActions(ctx, gameId);
  if (rows.length === 0) return hot;
  return hot.length === 0 ? rows : [...rows, ...hot].sort(byOrder);
}

/**
 * The compacted actions rows of a game (none while it is hot), in readActions' order — once the
 * blob's seal (bound to the game's head hash) matches its bytes, and only if they decode to as
 * many rows as were sealed; otherwise an IntegrityError, never altered decisions.
 */
export async function readColdActions(ctx: StoreContext, gameId: string): Promise<ActionRow[]> {
  const [cold] = await ctx.sql.rows<{ count: number; seal: string; data: string; last_seq: number; last_hash: string }>(COLD_SQL, [gameId]);
  if (!cold) return [];
  const broken = (reason: string, cause?: unknown) =>
    new IntegrityError(gameId, 'actions', 1, cold.last_seq, reason, cause === undefined ? undefined : { cause });
  const data = Buffer.from(cold.data, 'base64');
  if (sealOf(cold.last_hash, sha256(data)) !== cold.seal) throw broken("the blob's bytes or seal do not match the game's head");
  let tuples: unknown[][];
  try {
    tuples = JSON.parse(decompress(data)) as unknown[][];
  } catch (e) {
    throw broken('the sealed bytes do not decode', e);
  }
  if (!Array.isArray(tuples) || tuples.length !== Number(cold.count)) throw broken('the decoded rows are not as many as were sealed');
  return tuples.map((t) => {
    const r = Object.fromEntries(ACTION_COLUMNS.map((k, i) => [k, t[i]])) as ActionRow;
    return { ...r, accepted: bool(r.accepted) };
  });
}
