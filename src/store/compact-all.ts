import { compactGame } from './compact.js';
import type { StoreContext } from './context.js';

export type CompactProgress = { done: number; total: number; game_id: string; outcome: string };
export type CompactAllOptions = {
  /** After each game (for a progress line). */
  onProgress?: (p: CompactProgress) => void;
  /** Stops between games; what is compacted stays compacted. */
  signal?: AbortSignal;
};
export type CompactAllResult = { compacted: number; failed: Array<{ game_id: string; message: string }>; total: number };

const COUNT_SQL = `SELECT count(*)::int AS n FROM games WHERE status = 'ended' AND compacted_at IS NULL`;
const NEXT_SQL = `SELECT game_id FROM games WHERE status = 'ended' AND compacted_at IS NULL AND game_id > $1
  ORDER BY game_id LIMIT 100`;

/**
 * Compacts every ended game still hot, one transaction per game, in game_id order: resumable
 * (a crash or an abort leaves each game wholly hot or wholly cold, and the next run takes the hot
 * ones) and idempotent (nothing to do is a success). A game that fails (e.g. its chain does not
 * verify) is reported and skipped.
 *
 * @example await compactEnded(ctx, { onProgress: (p) => console.error(`${p.done}/${p.total}`) })
 */
export async function compactEnded(ctx: StoreContext, options: CompactAllOptions = {}): Promise<CompactAllResult> {
  const [count] = await ctx.sql.rows<{ n: number }>(COUNT_SQL);
  const total = Number(count?.n ?? 0);
  const out: CompactAllResult = { compacted: 0, failed: [], total };
  let after = '';
  let done = 0;
  for (;;) {
    const page = await ctx.sql.rows<{ game_id: string }>(NEXT_SQL, [after]);
    for (const { game_id } of page) {
      if (options.signal?.aborted) return out;
      let outcome: string;
      try {
        outcome = await compactGame(ctx, game_id);
        if (outcome === 'compacted') out.compacted++;
      } catch (e) {
        outcome = 'failed';
        out.failed.push({ game_id, message: (e as Error).message });
      }
      options.onProgress?.({ done: ++done, total, game_id, outcome });
      after = game_id;
    }
    if (page.length < 100) return out;
  }
}
