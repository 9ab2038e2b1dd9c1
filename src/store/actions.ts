import type { StoreContext } from './context.js';
import { InvalidInputError } from './errors.js';
import { ActionRecord } from './types.js';

/**
 * The actions JSON append and recordActions send. raw/validated travel as JSON text so that SQL
 * NULL (nothing sent) and JSON null (the agent sent `null`) stay apart.
 */
export function actionRowsJson(records: readonly ActionRecord[]): string {
  return JSON.stringify(
    records.map((input) => {
      const parsed = ActionRecord.safeParse(input);
      if (!parsed.success)
        throw new InvalidInputError(
          `invalid action record: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      const a = parsed.data;
      return {
        seq_before: a.seq_before,
        player_id: a.player_id,
        attempt: a.attempt,
        turn: a.turn,
        phase: a.phase,
        window: a.window,
        raw: a.raw === undefined ? null : JSON.stringify(a.raw),
        validated:
          a.validated === undefined || a.validated === null ? null : JSON.stringify(a.validated),
        accepted: a.accepted,
        rejection_code: a.rejection_code ?? null,
        ts: a.ts,
      };
    }),
  );
}

/** INSERT … SELECT of actions rows from JSON parameter `$json` for the game given by SQL `game`. */
export const insertActionsSql = (game: string, json: string) => `
  INSERT INTO actions (game_id, seq_before, player_id, attempt, turn, phase, "window", raw, validated, accepted, rejection_code, ts)
  SELECT ${game}, a.seq_before, a.player_id, a.attempt, a.turn, a.phase, a."window", a.raw::jsonb, a.validated::jsonb,
         a.accepted, a.rejection_code, a.ts
  FROM json_to_recordset(${json}::json) AS a(seq_before int, player_id text, attempt int, turn int, phase text,
       "window" text, raw text, validated text, accepted boolean, rejection_code text, ts timestamptz)`;

const RECORD_SQL = `WITH ins AS (${insertActionsSql('$1', '$2')} ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM ins`;

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
  const [out] = await ctx.sql.rows<{ n: number }>(RECORD_SQL, [gameId, actionRowsJson(records)]);
  return out?.n ?? 0;
}
