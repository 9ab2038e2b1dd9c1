import { decompress } from './cold-codec.js';
import { ACTION_COLUMNS } from './compact.js';
import type { StoreContext } from './context.js';

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
const COLD_SQL = `SELECT encode(data, 'base64') AS data FROM cold_actions WHERE game_id = $1`;

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

/** The compacted actions rows of a game (none while it is hot), in readActions' order. */
export async function readColdActions(ctx: StoreContext, gameId: string): Promise<ActionRow[]> {
  const [cold] = await ctx.sql.rows<{ data: string }>(COLD_SQL, [gameId]);
  if (!cold) return [];
  const tuples = JSON.parse(decompress(Buffer.from(cold.data, 'base64'))) as unknown[][];
  return tuples.map((t) => {
    const r = Object.fromEntries(ACTION_COLUMNS.map((k, i) => [k, t[i]])) as ActionRow;
    return { ...r, accepted: bool(r.accepted) };
  });
}
