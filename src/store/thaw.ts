import { bool, readColdActions } from './cold-actions.js';
import { readCold } from './cold-reads.js';
import type { StoreContext } from './context.js';
import { subjectOf, toRow } from './event-rows.js';
import { chainHashes, GENESIS_HASH } from './hash.js';

/**
 * `tiltyard store thaw`: a compacted game's events and actions as SQL rows again, in
 * thawed_events / thawed_actions (read together with hot games through the views events_all and
 * actions_all). PostgreSQL cannot decompress the cold segments' brotli, and a cold form it could
 * read (TOAST pglz over the same tuples) was measured at ~115 KB a game against ~80 KB (README):
 * over the budget. So SQL over cold games is opt-in: thaw what a study needs, drop it after.
 * The thawed rows are a cache of what the cold segments hold (same values, the same hash chain
 * recomputed): the store never reads them.
 */
export type ThawOutcome = 'thawed' | 'already' | 'hot' | 'missing';

const GAME_SQL = `SELECT compacted_at IS NOT NULL AS cold,
    EXISTS (SELECT 1 FROM thawed_events t WHERE t.game_id = g.game_id) AS thawed
  FROM games g WHERE g.game_id = $1`;

// One statement: a game is wholly thawed or not at all (a crash mid-thaw leaves nothing to clean).
// ON CONFLICT: two thaws of one game at once both succeed, the second writing nothing.
const INSERT_SQL = `WITH ev AS (
    INSERT INTO thawed_events (game_id, seq, event_id, schema_version, turn, phase, type, player_id, ts,
        payload, visibility, rng, annotations, prev_hash, hash)
      SELECT $1, r.seq, r.event_id, r.schema_version, r.turn, r.phase, r.type, r.player_id, r.ts::timestamptz,
          r.payload::json, r.visibility::json, r.rng::json, r.annotations::json, r.prev_hash, r.hash
        FROM json_to_recordset($2::json) AS r(seq int, event_id text, schema_version text, turn int, phase text,
          type text, player_id text, ts text, payload text, visibility text, rng text, annotations text,
          prev_hash text, hash text)
      ON CONFLICT DO NOTHING RETURNING 1
  ), ac AS (
    INSERT INTO thawed_actions (game_id, seq_before, player_id, attempt, turn, phase, "window", raw, validated,
        accepted, rejection_code, ts)
      SELECT $1, a.seq_before, a.player_id, a.attempt, a.turn, a.phase, a."window", a.raw::jsonb, a.validated::jsonb,
          a.accepted, a.rejection_code, a.ts::timestamptz
        FROM json_to_recordset($3::json) AS a(seq_before int, player_id text, attempt int, turn int, phase text,
          "window" text, raw text, validated text, accepted boolean, rejection_code text, ts text)
      ON CONFLICT DO NOTHING RETURNING 1
  )
  SELECT (SELECT count(*) FROM ev)::int AS events, (SELECT count(*) FROM ac)::int AS actions`;

/** seq is an int4 column: the largest seq there can be. */
const INT4_MAX = 2_147_483_647;

/**
 * Thaws one game: `hot` when its rows are still in events/actions (nothing to do: events_all
 * shows them), `already` when thawed before, `missing` when no such game.
 *
 * @example await thawGame(ctx, 'game_s1') // then: SELECT * FROM events_all WHERE game_id = 'game_s1'
 */
export async function thawGame(ctx: StoreContext, gameId: string): Promise<ThawOutcome> {
  const [g] = await ctx.sql.rows<{ cold: unknown; thawed: unknown }>(GAME_SQL, [gameId]);
  if (!g) return 'missing';
  if (!bool(g.cold)) return 'hot';
  if (bool(g.thawed)) return 'already';
  const events = await readCold(ctx, gameId, 0, INT4_MAX, INT4_MAX);
  const hashes = chainHashes(GENESIS_HASH, events);
  const rows = events.map((e, i) => ({ ...toRow(e, i === 0 ? GENESIS_HASH : hashes[i - 1]!, hashes[i]!), player_id: subjectOf(e) }));
  // Only the compacted decisions: any recorded after compaction are still rows of `actions`.
  const actions = await readColdActions(ctx, gameId);
  await ctx.sql.rows(INSERT_SQL, [gameId, JSON.stringify(rows), JSON.stringify(actions)]);
  return 'thawed';
}
