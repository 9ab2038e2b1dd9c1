import type { StoreContext } from './context.js';

/** One provider_calls row: an LLM call, or usage an external agent reported in its logs. */
export type ProviderCallRow = {
  provider: string;
  model: string;
  request_hash: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** Wire time: the HTTP attempt, request sent → whole reply read (a reported call: what the agent said). */
  latency_ms: number;
  /** Time waiting in Tiltyard before the request left (cap holds, retry backoff); 0 when none or not known. */
  queued_ms?: number;
  /** ok | malformed | refused | timeout | rate_limited | unavailable | error | reported */
  status: string;
  error: string | null;
  player_id: string | null;
  turn: number | null;
  window: string | null;
};

const INSERT_SQL = `
  INSERT INTO provider_calls (game_id, player_id, turn, "window", provider, model, request_hash, input_tokens, output_tokens, cost_usd, latency_ms, queued_ms, status, error)
  SELECT $1, c.player_id, c.turn, c."window", c.provider, c.model, c.request_hash, c.input_tokens, c.output_tokens, c.cost_usd, c.latency_ms, COALESCE(c.queued_ms, 0), c.status, c.error
  FROM json_to_recordset($2::json) AS c(player_id text, turn int, "window" text, provider text, model text, request_hash text,
       input_tokens int, output_tokens int, cost_usd float8, latency_ms int, queued_ms int, status text, error text)`;

/**
 * Records provider calls in one statement (game_id may be null: calls outside a stored game).
 *
 * @example await recordProviderCalls(ctx, 'game_ab12', [{ provider: 'openai', model: 'gpt-4o-mini', status: 'ok', … }])
 */
export async function recordProviderCalls(ctx: StoreContext, gameId: string | null, calls: readonly ProviderCallRow[]): Promise<void> {
  if (calls.length === 0) return;
  await ctx.sql.rows(INSERT_SQL, [gameId, JSON.stringify(calls)]);
}

/** A game's provider calls in the order they were recorded. */
export async function readProviderCalls(ctx: StoreContext, gameId: string): Promise<ProviderCallRow[]> {
  const rows = await ctx.sql.rows<ProviderCallRow & { cost_usd: number | string }>(
    `SELECT provider, model, request_hash, input_tokens, output_tokens, cost_usd, latency_ms, queued_ms, status, error, player_id, turn, "window"
     FROM provider_calls WHERE game_id = $1 ORDER BY id`,
    [gameId],
  );
  return rows.map((r) => ({ ...r, cost_usd: Number(r.cost_usd), input_tokens: Number(r.input_tokens), output_tokens: Number(r.output_tokens), latency_ms: Number(r.latency_ms), queued_ms: Number(r.queued_ms ?? 0), turn: r.turn === null ? null : Number(r.turn) }));
}

/** What one model's recorded calls used: the basis of a cost estimate once some games exist. */
export type ModelUsage = {
  /** Answered calls looked at (the most recent, at most 5,000) and the decisions they served. */
  calls: number;
  decisions: number;
  input_tokens: { p25: number; p90: number; max: number };
  output_tokens: { p25: number; p90: number; max: number };
};

/**
 * The token spread of a model's recent answered calls (status ok), and how many decisions they
 * served (a decision is one game, seat, turn and window; repairs and retries add calls to it).
 * Null when the store holds none.
 */
export async function modelUsage(ctx: StoreContext, provider: string, model: string): Promise<ModelUsage | null> {
  const [row] = await ctx.sql.rows<{ calls: number | string; decisions: number | string; in25: number | null; in90: number | null; out25: number | null; out90: number | null; inmax: number | string | null; outmax: number | string | null }>(
    `WITH recent AS (SELECT game_id, player_id, turn, "window", input_tokens, output_tokens FROM provider_calls
                     WHERE provider = $1 AND model = $2 AND status = 'ok' ORDER BY id DESC LIMIT 5000)
     SELECT count(*) AS calls,
            count(DISTINCT (game_id, player_id, turn, "window")) AS decisions,
            percentile_cont(0.25) WITHIN GROUP (ORDER BY input_tokens) AS in25,
            percentile_cont(0.9) WITHIN GROUP (ORDER BY input_tokens) AS in90,
            percentile_cont(0.25) WITHIN GROUP (ORDER BY output_tokens) AS out25,
            percentile_cont(0.9) WITHIN GROUP (ORDER BY output_tokens) AS out90,
            max(input_tokens) AS inmax, max(output_tokens) AS outmax
     FROM recent`,
    [provider, model],
  );
  const calls = Number(row?.calls ?? 0);
  if (!row || calls === 0) return null;
  return {
    calls,
    decisions: Number(row.decisions),
    input_tokens: { p25: Number(row.in25), p90: Number(row.in90), max: Number(row.inmax) },
    output_tokens: { p25: Number(row.out25), p90: Number(row.out90), max: Number(row.outmax) },
  };
}
