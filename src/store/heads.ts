import type { Head, StoreContext } from './context.js';
import { GameNotFoundError } from './errors.js';

const HEAD_SQL = `SELECT last_seq AS seq, last_hash AS hash FROM games WHERE game_id = $1`;

/** How many heads a store remembers; past that the oldest are forgotten (and re-read if needed). */
const REMEMBERED = 10_000;

/** Remembers a game's head for its next append (insertion order doubles as age). */
export function rememberHead(ctx: StoreContext, gameId: string, head: Head): void {
  ctx.heads.delete(gameId);
  ctx.heads.set(gameId, head);
  if (ctx.heads.size > REMEMBERED) ctx.heads.delete(ctx.heads.keys().next().value!);
}

/** The head of a game's log as stored now (and remembered). */
export async function readHead(ctx: StoreContext, gameId: string): Promise<Head> {
  const [head] = await ctx.sql.rows<Head>(HEAD_SQL, [gameId]);
  if (!head) throw new GameNotFoundError(gameId);
  rememberHead(ctx, gameId, head);
  return head;
}

/** The seq of the last event stored for a game (0 when none). */
export async function lastSeq(ctx: StoreContext, gameId: string): Promise<number> {
  return (await readHead(ctx, gameId)).seq;
}
