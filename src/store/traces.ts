import type { StoreContext } from './context.js';
import { InvalidInputError } from './errors.js';
import { jsonbSafe } from './jsonb-text.js';

/** One agent decision's trace, as agent_traces keeps it: keys for lookups, the whole trace as JSON. */
export type TraceRecord = {
  player_id: string;
  turn: number;
  window: string;
  request_id: string;
  /** The runtime's DecisionTrace (stages, failure, memory…), JSON-serialisable. */
  entries: unknown;
};

const INSERT_SQL = `
  INSERT INTO agent_traces (game_id, player_id, turn, "window", request_id, entries)
  SELECT $1, t.player_id, t.turn, t."window", t.request_id, t.entries
  FROM json_to_recordset($2::json) AS t(player_id text, turn int, "window" text, request_id text, entries jsonb)`;

/**
 * Records decision traces in one statement. U+0000 in a trace (an agent may log anything) is
 * stored as U+FFFD: jsonb cannot hold it, and a stray NUL must not fail the game's storing.
 *
 * @example await recordTraces(ctx, 'game_ab12', [{ player_id: 'plr_1', turn: 3, window: 'action', request_id: 'req_…', entries: trace }])
 */
export async function recordTraces(ctx: StoreContext, gameId: string, traces: readonly TraceRecord[]): Promise<void> {
  if (traces.length === 0) return;
  for (const t of traces) {
    if (!t.player_id || !Number.isInteger(t.turn) || !t.window || !t.request_id)
      throw new InvalidInputError(`invalid trace record for ${gameId}: player_id, turn, window and request_id are required`);
  }
  await ctx.sql.rows(INSERT_SQL, [gameId, jsonbSafe(JSON.stringify(traces))]);
}

/** A game's traces in the order they were recorded, optionally one seat's only. */
export async function readTraces(ctx: StoreContext, gameId: string, playerId?: string): Promise<Array<TraceRecord & { created_at: string }>> {
  const rows = await ctx.sql.rows<{ player_id: string; turn: number; window: string; request_id: string; entries: string; created_at: string }>(
    `SELECT player_id, turn, "window", request_id, entries::text AS entries,
            to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at
     FROM agent_traces WHERE game_id = $1 AND ($2::text IS NULL OR player_id = $2) ORDER BY id`,
    [gameId, playerId ?? null],
  );
  return rows.map((r) => ({ ...r, turn: Number(r.turn), entries: JSON.parse(r.entries) as unknown }));
}

/** One decision's stated reasoning (the final stage's `reasoning`), as readReasoning gives it. */
export type ReasoningRow = { id: number; player_id: string; turn: number; window: string; request_id: string; reasoning: string };

/**
 * The reasoning LLM seats stated with their answers (each trace's last `final` stage's
 * `reasoning`), traces after row `afterId` only, oldest first: only the text leaves the database,
 * never the rest of the trace (prompts, calls, memory), and a feed can read on where it stopped.
 *
 * @example await readReasoning(ctx, 'game_ab12', 0) // [{ id: 7, player_id: 'plr_1', request_id: 'req_ab12_41_plr_1_0', reasoning: 'Bram is bluffing.', … }]
 */
export async function readReasoning(ctx: StoreContext, gameId: string, afterId = 0): Promise<ReasoningRow[]> {
  const rows = await ctx.sql.rows<{ id: string; player_id: string; turn: number; window: string; request_id: string; reasoning: string | null }>(
    `SELECT t.id::text AS id, t.player_id, t.turn, t."window", t.request_id,
            (SELECT s.value->'payload'->>'reasoning'
               FROM jsonb_array_elements(CASE WHEN jsonb_typeof(t.entries->'stages') = 'array' THEN t.entries->'stages' ELSE '[]'::jsonb END) WITH ORDINALITY AS s(value, n)
              WHERE jsonb_typeof(s.value) = 'object' AND s.value->>'stage' = 'final' ORDER BY s.n DESC LIMIT 1) AS reasoning
     FROM agent_traces t WHERE t.game_id = $1 AND t.id > $2::bigint ORDER BY t.id`,
    [gameId, String(afterId)],
  );
  return rows.map((r) => ({ id: Number(r.id), player_id: r.player_id, turn: Number(r.turn), window: r.window, request_id: r.request_id, reasoning: r.reasoning ?? '' }));
}
