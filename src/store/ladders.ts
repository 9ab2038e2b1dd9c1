import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Placement } from '../protocol/index.js';
import type { Standing } from '../tournament/types.js';
import type { StoreContext } from './context.js';
import { InvalidInputError, StoreError } from './errors.js';

/**
 * Ladders in the store (docs/ladder.md): the ladder, its entrants, its deals (each a line-up and a
 * seed played in every seat rotation) and their games, and the standings after every deal. A deal
 * is `playing` from the moment it is chosen until all its games are stored; only then does one
 * statement mark it `done` and store the standings it led to, so a killed runner leaves either a
 * deal to finish (its games found by id) or a finished one — never a deal counted twice or half.
 */
export const LadderStatus = z.enum(['active', 'paused']);
export const EntrantStatus = z.enum(['active', 'retired', 'suspended']);
export type EntrantStatus = z.infer<typeof EntrantStatus>;
export const DealStatus = z.enum(['playing', 'done', 'void']);
export type DealStatus = z.infer<typeof DealStatus>;

export class LadderNotFoundError extends StoreError {
  override readonly name = 'LadderNotFoundError';
  constructor(readonly ladderId: string) {
    super(`no ladder ${ladderId}`);
  }
}

export type EntrantRecord = {
  agent: string;
  joined_at: string;
  /** Deals the ladder had when it joined. */
  joined_at_deal: number;
  status: EntrantStatus;
  cause: string | null;
  admitted_at: string | null;
  max_usd_per_day: number | null;
  max_usd_total: number | null;
};

export type LadderRecord = {
  ladder_id: string;
  name: string;
  seed: number;
  seats: number;
  compact: boolean;
  status: z.infer<typeof LadderStatus>;
  options: Record<string, unknown>;
  entrants: EntrantRecord[];
  /** Deals chosen so far (any status), and how many count. */
  deals: number;
  deals_done: number;
  created_at: string;
};

export type LadderGameRecord = { game_id: string; rotation: number; seats: string[]; status: string; placements: Placement[] | null; error: string | null; degraded: boolean;
  /** The entrant whose seat degraded the game (options.degraded.agent), when it says. */
  degraded_agent: string | null;
  ended_at: string | null;
};
export type DealRecord = { deal: number; seed: number; lineup: string[]; status: DealStatus; cause: string | null; games: LadderGameRecord[] };
export type EntrantInput = { agent: string; max_usd_per_day?: number | null; max_usd_total?: number | null };
export type CreateLadderInput = { ladder_id?: string; name: string; seed: number; seats: number; compact: boolean; options?: Record<string, unknown>; entrants: readonly EntrantInput[] };
/** One entrant's rating after one deal (its history is these in deal order). */
export type RatingPoint = { deal: number; agent: string; mu: number; low: number | null; high: number | null; games: number };

export const newLadderId = (): string => `lad_${randomBytes(6).toString('hex')}`;

type LadderRow = { ladder_id: string; name: string; seed: string; seats: number; compact: boolean; status: string; options: unknown; created_at: Date; deals: number; deals_done: number };
type EntrantRow = { ladder_id: string; agent: string; joined_at: Date; joined_at_deal: number; status: string; cause: string | null; admitted_at: Date | null; max_usd_per_day: number | null; max_usd_total: number | null };

const SELECT_LADDERS = `SELECT l.ladder_id, l.name, l.seed::text AS seed, l.seats, l.compact, l.status, l.options, l.created_at,
  (SELECT count(*)::int FROM ladder_deals d WHERE d.ladder_id = l.ladder_id) AS deals,
  (SELECT count(*)::int FROM ladder_deals d WHERE d.ladder_id = l.ladder_id AND d.status = 'done') AS deals_done
  FROM ladders l`;

const entrantOf = (r: EntrantRow): EntrantRecord => ({
  agent: r.agent,
  joined_at: r.joined_at.toISOString(),
  joined_at_deal: Number(r.joined_at_deal),
  status: EntrantStatus.parse(r.status),
  cause: r.cause,
  admitted_at: r.admitted_at?.toISOString() ?? null,
  max_usd_per_day: r.max_usd_per_day,
  max_usd_total: r.max_usd_total,
});

async function withEntrants(ctx: StoreContext, rows: LadderRow[]): Promise<LadderRecord[]> {
  if (rows.length === 0) return [];
  const entrants = await ctx.prisma.$queryRawUnsafe<EntrantRow[]>(
    `SELECT * FROM ladder_entrants WHERE ladder_id = ANY($1::text[]) ORDER BY joined_at_deal, joined_at, agent`,
    rows.map((r) => r.ladder_id),
  );
  return rows.map((r) => ({
    ladder_id: r.ladder_id,
    name: r.name,
    seed: Number(r.seed),
    seats: Number(r.seats),
    compact: r.compact,
    status: LadderStatus.parse(r.status),
    options: (r.options as Record<string, unknown>) ?? {},
    entrants: entrants.filter((e) => e.ladder_id === r.ladder_id).map(entrantOf),
    deals: Number(r.deals),
    deals_done: Number(r.deals_done),
    created_at: r.created_at.toISOString(),
  }));
}

export async function getLadder(ctx: StoreContext, ladderId: string): Promise<LadderRecord> {
  const rows = await ctx.prisma.$queryRawUnsafe<LadderRow[]>(`${SELECT_LADDERS} WHERE l.ladder_id = $1`, ladderId);
  const [ladder] = await withEntrants(ctx, rows);
  if (!ladder) throw new LadderNotFoundError(ladderId);
  return ladder;
}

/** Ladders newest first. */
export async function listLadders(ctx: StoreContext, limit = 100): Promise<LadderRecord[]> {
  const n = z.number().int().min(1).max(1000).parse(limit);
  const rows = await ctx.prisma.$queryRawUnsafe<LadderRow[]>(`${SELECT_LADDERS} ORDER BY l.created_at DESC, l.ladder_id DESC LIMIT $1`, n);
  return withEntrants(ctx, rows);
}

/** Registers a ladder with its first entrants (one statement: all or nothing). */
export async function createLadder(ctx: StoreContext, input: CreateLadderInput): Promise<LadderRecord> {
  const id = input.ladder_id ?? newLadderId();
  const entrants = JSON.stringify(input.entrants.map((e) => ({ agent: e.agent, max_usd_per_day: e.max_usd_per_day ?? null, max_usd_total: e.max_usd_total ?? null })));
  await ctx.prisma.$executeRaw`
    WITH l AS (INSERT INTO ladders (ladder_id, name, seed, seats, compact, options)
               VALUES (${id}, ${input.name}, ${input.seed}, ${input.seats}, ${input.compact}, ${JSON.stringify(input.options ?? {})}::jsonb) RETURNING ladder_id)
    INSERT INTO ladder_entrants (ladder_id, agent, max_usd_per_day, max_usd_total)
    SELECT l.ladder_id, e.agent, e.max_usd_per_day, e.max_usd_total FROM l, json_to_recordset(${entrants}::json) AS e(agent text, max_usd_per_day float8, max_usd_total float8)`;
  return getLadder(ctx, id);
}

/**
 * Adds an entrant (a newcomer from the next deal on), or brings a retired or suspended one back
 * (its cause cleared, its caps replaced). One already active is an InvalidInputError.
 */
export async function addEntrant(ctx: StoreContext, ladderId: string, input: EntrantInput): Promise<EntrantRecord> {
  await getLadder(ctx, ladderId);
  const rows = await ctx.prisma.$queryRaw<EntrantRow[]>`
    INSERT INTO ladder_entrants (ladder_id, agent, joined_at_deal, max_usd_per_day, max_usd_total)
    VALUES (${ladderId}, ${input.agent}, (SELECT count(*)::int FROM ladder_deals WHERE ladder_id = ${ladderId}), ${input.max_usd_per_day ?? null}, ${input.max_usd_total ?? null})
    ON CONFLICT (ladder_id, agent) DO UPDATE SET status = 'active', cause = NULL,
      max_usd_per_day = excluded.max_usd_per_day, max_usd_total = excluded.max_usd_total
      WHERE ladder_entrants.status <> 'active'
    RETURNING *`;
  if (!rows[0]) throw new InvalidInputError(`${input.agent} is already an entrant of ladder ${ladderId}`);
  return entrantOf(rows[0]);
}

/** Retires, suspends (with the cause) or reinstates an entrant. */
export async function setEntrantStatus(ctx: StoreContext, ladderId: string, agent: string, status: EntrantStatus, cause: string | null = null): Promise<void> {
  const n = await ctx.prisma.$executeRaw`
    UPDATE ladder_entrants SET status = ${EntrantStatus.parse(status)}, cause = ${cause?.slice(0, 2000) ?? null} WHERE ladder_id = ${ladderId} AND agent = ${agent}`;
  if (n === 0) throw new InvalidInputError(`${agent} is not an entrant of ladder ${ladderId}`);
}

/** Records that an entrant passed admission (it may play from now on). */
export async function admitEntrant(ctx: StoreContext, ladderId: string, agent: string): Promise<void> {
  await ctx.prisma.$executeRaw`UPDATE ladder_entrants SET admitted_at = now() WHERE ladder_id = ${ladderId} AND agent = ${agent} AND admitted_at IS NULL`;
}

/** Saves a chosen deal before any of its games exist (idempotent for the same deal number). */
export async function startDeal(ctx: StoreContext, ladderId: string, deal: { deal: number; seed: number; lineup: readonly string[] }): Promise<void> {
  await ctx.prisma.$executeRaw`
    INSERT INTO ladder_deals (ladder_id, deal, seed, lineup) VALUES (${ladderId}, ${deal.deal}, ${deal.seed}, ${JSON.stringify(deal.lineup)}::jsonb)
    ON CONFLICT DO NOTHING`;
}

/** Links a created game to its deal and rotation (idempotent). */
export async function linkLadderGame(ctx: StoreContext, ladderId: string, link: { game_id: string; deal: number; rotation: number; seats: readonly string[] }): Promise<void> {
  await ctx.prisma.$executeRaw`
    INSERT INTO ladder_games (ladder_id, game_id, deal, rotation, seats) VALUES (${ladderId}, ${link.game_id}, ${link.deal}, ${link.rotation}, ${JSON.stringify(link.seats)}::jsonb)
    ON CONFLICT DO NOTHING`;
}

/** Marks a ladder game failed (with why) or degraded; a failed game's row in `games` says so too. */
export async function markLadderGame(ctx: StoreContext, ladderId: string, gameId: string, mark: { error?: string; degraded?: boolean }): Promise<void> {
  const error = mark.error?.slice(0, 2000) ?? null;
  await ctx.prisma.$executeRaw`
    WITH g AS (UPDATE games SET status = 'failed', failure_reason = ${error}, updated_at = now(), ended_at = now()
               WHERE game_id = ${gameId} AND ${error}::text IS NOT NULL AND status IN ('created', 'running') RETURNING 1)
    UPDATE ladder_games SET error = COALESCE(${error}, error), degraded = degraded OR ${mark.degraded === true} WHERE ladder_id = ${ladderId} AND game_id = ${gameId}`;
}

/**
 * Ends a deal in one statement: `done` with the standings it led to (the rating history's point for
 * this deal), or `void` with its cause. Only a `playing` deal changes: a second call is a no-op.
 */
export async function finishDeal(ctx: StoreContext, ladderId: string, deal: number, end: { status: 'done'; standings: readonly Standing[] } | { status: 'void'; cause: string }): Promise<void> {
  if (end.status === 'void') {
    await ctx.prisma.$executeRaw`
      UPDATE ladder_deals SET status = 'void', cause = ${end.cause.slice(0, 2000)}, done_at = now() WHERE ladder_id = ${ladderId} AND deal = ${deal} AND status = 'playing'`;
    return;
  }
  const rows = JSON.stringify(end.standings.map((s) => ({ agent: s.agent, mu: s.mu, low: s.rating_ci?.low ?? null, high: s.rating_ci?.high ?? null, games: s.games, standing: s })));
  await ctx.prisma.$executeRaw`
    WITH d AS (UPDATE ladder_deals SET status = 'done', done_at = now() WHERE ladder_id = ${ladderId} AND deal = ${deal} AND status = 'playing' RETURNING 1)
    INSERT INTO ladder_ratings (ladder_id, deal, agent, mu, low, high, games, standing)
    SELECT ${ladderId}, ${deal}, r.agent, r.mu, r.low, r.high, r.games, r.standing
    FROM json_to_recordset(${rows}::json) AS r(agent text, mu float8, low float8, high float8, games int, standing json)
    WHERE EXISTS (SELECT 1 FROM d)
    ON CONFLICT DO NOTHING`;
}

type DealRow = { deal: number; seed: string; lineup: unknown; status: string; cause: string | null };
type GameRow = { deal: number; game_id: string; rotation: number; seats: unknown; status: string; placements: unknown; error: string | null; degraded: boolean; degraded_agent: string | null; ended_at: Date | null };

/** A ladder's deals with their games, in deal order (`from`: only deals numbered from it on). */
export async function ladderDeals(ctx: StoreContext, ladderId: string, from = 0): Promise<DealRecord[]> {
  const deals = await ctx.prisma.$queryRaw<DealRow[]>`
    SELECT deal, seed::text AS seed, lineup, status, cause FROM ladder_deals WHERE ladder_id = ${ladderId} AND deal >= ${from} ORDER BY deal`;
  const games = await ctx.prisma.$queryRaw<GameRow[]>`
    SELECT lg.deal, lg.game_id, lg.rotation, lg.seats, g.status, g.placements, lg.error, lg.degraded OR (g.options->'degraded') IS NOT NULL AS degraded, g.options->'degraded'->>'agent' AS degraded_agent, g.ended_at
    FROM ladder_games lg JOIN games g USING (game_id) WHERE lg.ladder_id = ${ladderId} AND lg.deal >= ${from} ORDER BY lg.deal, lg.rotation`;
  const byDeal = new Map<number, LadderGameRecord[]>();
  for (const g of games) {
    const list = byDeal.get(Number(g.deal)) ?? [];
    list.push({ game_id: g.game_id, rotation: Number(g.rotation), seats: g.seats as string[], status: g.status, placements: (g.placements as Placement[] | null) ?? null, error: g.error, degraded: g.degraded === true, degraded_agent: g.degraded_agent, ended_at: g.ended_at?.toISOString() ?? null });
    byDeal.set(Number(g.deal), list);
  }
  return deals.map((d) => ({ deal: Number(d.deal), seed: Number(d.seed), lineup: d.lineup as string[], status: DealStatus.parse(d.status), cause: d.cause, games: byDeal.get(Number(d.deal)) ?? [] }));
}

/** Every entrant's rating after every done deal, in deal order (the history behind the chart). */
export async function ladderHistory(ctx: StoreContext, ladderId: string): Promise<RatingPoint[]> {
  const rows = await ctx.prisma.$queryRaw<RatingPoint[]>`
    SELECT deal, agent, mu, low, high, games FROM ladder_ratings WHERE ladder_id = ${ladderId} ORDER BY deal, agent`;
  return rows.map((r) => ({ deal: Number(r.deal), agent: r.agent, mu: r.mu, low: r.low, high: r.high, games: Number(r.games) }));
}

/** The standings stored after the latest done deal (empty before any). */
export async function latestStandings(ctx: StoreContext, ladderId: string): Promise<{ deal: number; standings: Standing[] } | null> {
  const rows = await ctx.prisma.$queryRaw<{ deal: number; standing: unknown }[]>`
    SELECT deal, standing FROM ladder_ratings WHERE ladder_id = ${ladderId}
      AND deal = (SELECT max(deal) FROM ladder_ratings WHERE ladder_id = ${ladderId}) ORDER BY mu DESC, agent`;
  if (rows.length === 0) return null;
  return { deal: Number(rows[0]!.deal), standings: rows.map((r) => r.standing as Standing) };
}

/**
 * What an entrant's own seats have cost on this ladder (USD): its recorded provider calls, matched
 * to it through the seat it held; `since`: only calls from then on (its daily cap).
 */
export async function entrantSpend(ctx: StoreContext, ladderId: string, agent: string, since: Date | null = null): Promise<number> {
  const rows = await ctx.prisma.$queryRaw<{ usd: number | null }[]>`
    SELECT SUM(pc.cost_usd)::float8 AS usd FROM provider_calls pc
    JOIN ladder_games lg ON lg.game_id = pc.game_id
    JOIN games g ON g.game_id = pc.game_id
    WHERE lg.ladder_id = ${ladderId} AND (${since}::timestamptz IS NULL OR pc.created_at >= ${since}::timestamptz)
      AND EXISTS (SELECT 1 FROM jsonb_array_elements(g.seats) s WHERE s->>'player_id' = pc.player_id AND s->>'agent' = ${agent})`;
  return rows[0]?.usd ?? 0;
}
