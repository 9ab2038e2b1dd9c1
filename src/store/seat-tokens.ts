import type { StoreContext } from './context.js';

/** A human seat's token, as stored: its sha256 only (hex), never the token itself. */
export type SeatTokenRow = { player_id: string; token_hash: string };

/**
 * Records a game's human seats' token hashes in one statement (idempotent: a seat keeps its first hash).
 *
 * @example await recordSeatTokens(ctx, 'game_ab12', [{ player_id: 'plr_2', token_hash: 'e3b0…' }])
 */
export async function recordSeatTokens(ctx: StoreContext, gameId: string, rows: readonly SeatTokenRow[]): Promise<void> {
  if (rows.length === 0) return;
  await ctx.sql.rows(
    `INSERT INTO seat_tokens (game_id, player_id, token_hash)
     SELECT $1, r.player_id, r.token_hash FROM json_to_recordset($2::json) AS r(player_id text, token_hash text)
     ON CONFLICT (game_id, player_id) DO NOTHING`,
    [gameId, JSON.stringify(rows)],
  );
}

/** The stored token hashes of a game's human seats (none: it has no human seat). */
export async function readSeatTokens(ctx: StoreContext, gameId: string): Promise<SeatTokenRow[]> {
  return ctx.sql.rows<SeatTokenRow>(`SELECT player_id, token_hash FROM seat_tokens WHERE game_id = $1 ORDER BY player_id`, [gameId]);
}
