import type { StoreContext } from './context.js';
import { thawGame, type ThawOutcome } from './thaw.js';

/** Which games `thaw`/`unthaw` take: named ones, a tournament's, or every compacted game. */
export type ThawSelection = { game_ids: readonly string[] } | { tournament_id: string } | { all: true };
export type ThawProgress = { done: number; total: number; game_id: string; outcome: ThawOutcome | 'failed' };
export type ThawAllResult = { thawed: number; total: number; failed: Array<{ game_id: string; message: string }> };

const TOURNAMENT_SQL = `SELECT tg.game_id FROM tournament_games tg JOIN games g ON g.game_id = tg.game_id
  WHERE tg.tournament_id = $1 AND g.compacted_at IS NOT NULL ORDER BY tg.game_id`;
const ALL_SQL = `SELECT game_id FROM games WHERE compacted_at IS NOT NULL ORDER BY game_id`;

async function selected(ctx: StoreContext, s: ThawSelection): Promise<string[]> {
  if ('game_ids' in s) return [...new Set(s.game_ids)];
  const rows = await ctx.sql.rows<{ game_id: string }>(
    'tournament_id' in s ? TOURNAMENT_SQL : ALL_SQL,
    'tournament_id' in s ? [s.tournament_id] : [],
  );
  return rows.map((r) => r.game_id);
}

/**
 * Thaws the selected games one statement each (resumable: stop it anywhere and run it again; a
 * game already thawed is `already`). A game that fails is reported and skipped.
 */
export async function thawGames(
  ctx: StoreContext,
  selection: ThawSelection,
  options: { onProgress?: (p: ThawProgress) => void; signal?: AbortSignal } = {},
): Promise<ThawAllResult> {
  const ids = await selected(ctx, selection);
  const out: ThawAllResult = { thawed: 0, total: ids.length, failed: [] };
  let done = 0;
  for (const game_id of ids) {
    if (options.signal?.aborted) break;
    let outcome: ThawProgress['outcome'];
    try {
      outcome = await ctx.faults.run('thaw', () => thawGame(ctx, game_id));
      if (outcome === 'thawed') out.thawed++;
    } catch (e) {
      outcome = 'failed';
      out.failed.push({ game_id, message: (e as Error).message });
    }
    options.onProgress?.({ done: ++done, total: ids.length, game_id, outcome });
  }
  return out;
}

/** Drops the thawed rows of the selected games (all thawed games with `{all: true}`); the cold data stays. */
export async function dropThawed(ctx: StoreContext, selection: ThawSelection): Promise<{ games: number }> {
  const ids = 'all' in selection ? null : await selected(ctx, selection);
  const where = ids === null ? '' : 'WHERE game_id IN (SELECT json_array_elements_text($1::json))';
  const params = ids === null ? [] : [JSON.stringify(ids)];
  const [r] = await ctx.sql.rows<{ n: number }>(
    `WITH e AS (DELETE FROM thawed_events ${where} RETURNING game_id),
      a AS (DELETE FROM thawed_actions ${where} RETURNING game_id)
    SELECT (SELECT count(DISTINCT game_id) FROM e)::int AS n, (SELECT count(*) FROM a)::int AS _a`,
    params,
  );
  return { games: Number(r?.n ?? 0) };
}
