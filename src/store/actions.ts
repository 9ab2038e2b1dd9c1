import type { StoreContext } from './context.js';
import { actionLines } from './row-lines.js';
import type { ActionRecord } from './types.js';

const RECORD_SQL = `SELECT tiltyard_insert_actions_v1($1, $2) AS n`;

/**
 * Records agent decisions outside an append (e.g. a refused answer that produced no event), in
 * one statement. Already recorded ones are left as they are; returns how many were new.
 *
 * @example await recordActions(ctx, 'game_s1', [{ seq_before: 12, player_id: 'plr_2', turn: 1, phase: 'action', window: 'action', raw, accepted: false, rejection_code: 'action/missing_attack_plan', ts }])
 */
export async function recordActions(
  ctx: StoreContext,
  gameId: string,
  records: readonly ActionRecord[],
): Promise<number> {
  if (records.length === 0) return 0;
  const [out] = await ctx.sql.rows<{ n: number }>(RECORD_SQL, [gameId, actionLines(records)]);
  return out?.n ?? 0;
}
