import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Placement } from '../protocol/index.js';
import type { Standing } from '../tournament/types.js';
import { canonicalJson } from './canonical-json.js';
import type { StoreContext } from './context.js';
import { InvalidInputError, StoreError } from './errors.js';

/**
 * `stopped_by_budget`: the runner stopped starting games because the recorded provider cost reached
 * the tournament's `max_cost_usd`; resumable with a higher limit. `stopped`: the database's disk
 * filled up (StoreFullError); resumable once there is room. Neither is an end.
 */
export const TOURNAMENT_STATUSES = ['created', 'running', 'ended', 'aborted', 'stopped_by_budget', 'stopped'] as const;
export const TournamentStatus = z.enum(TOURNAMENT_STATUSES);
export type TournamentStatus = z.infer<typeof TournamentStatus>;

/** No tournament with that id. */
export class TournamentNotFoundError extends StoreError {
  override readonly name = 'TournamentNotFoundError';
  constructor(readonly tournamentId: string) {
    super(`no tournament ${tournamentId}`);
  }
}

/** How far a tournament got: games scheduled so far, and how many ended, failed or are still to finish. */
export type TournamentProgress = { games: number; ended: number; failed: number; pending: number };

/** A row of `tournaments` with its progress (snake_case, ISO timestamps). */
export type TournamentRecord = {
  tournament_id: string;
  name: string;
  seed: number;
  /** The TournamentConfig it was created with (validated by the caller: see src/tournament/config.ts). */
  config: Record<string, unknown>;
  status: TournamentStatus;
  /** The batch being played (ScheduledGame[]), or null before the first. */
  batch: unknown[] | null;
  /** What the server runs its games with (pace, spectator delay), or null outside the server. */
  options: Record<string, unknown> | null;
  progress: TournamentProgress;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
};

/**
 * A game of a tournament. `state` reads the game's own status: `ended` (it has placements),
 * `pending` (created or running: to be played or resumed), `failed` (marked failed, or any other
 * status, e.g. aborted — none of which counts for anyone).
 */
export type TournamentGameRecord = {
  game_id: string;
  key: string;
  round: number;
  table: number;
  seats: string[];
  /** The games row's status as stored (created, running, ended, aborted, or one a newer version adds). */
  status: string;
  state: 'pending' | 'ended' | 'failed';
  placements: Placement[] | null;
  error: string | null;
  /** The game ran out of an LLM seat's budget (options.degraded): rated only with rate_degraded. */
  degraded?: boolean;
};

/** A stored rating: the Standing (src/tournament/types.ts) saved with it, and when. */
export type RatingRecord = { standing: Standing; updated_at: string };

/** What saveRatings takes: the standings as the core computes them. */
export type RatingInput = Standing;

export type CreateTournamentInput = {
  /** Default: a fresh `trn_…` id. */
  tournament_id?: string;
  name?: string;
  config: Record<string, unknown> & { seed: number };
  /** What the server runs its games with (see TournamentRecord.options). */
  options?: Record<string, unknown>;
};

/** A fresh tournament id. */
export const newTournamentId = (): string => `trn_${randomBytes(6).toString('hex')}`;

type TournamentRow = {
  tournament_id: string;
  name: string;
  seed: string | number | bigint;
  config: unknown;
  status: string;
  batch: unknown;
  options: unknown;
  created_at: Date;
  updated_at: Date;
  ended_at: Date | null;
  games: number;
  ended: number;
  failed: number;
};

/** A game's state as a tournament counts it (see TournamentGameRecord). */
const STATE_SQL = `CASE WHEN tg.error IS NOT NULL THEN 'failed' WHEN g.status = 'ended' THEN 'ended'
  WHEN g.status IN ('created', 'running') THEN 'pending' ELSE 'failed' END`;

const SELECT_TOURNAMENTS = `
  SELECT t.tournament_id, t.name, t.seed::text AS seed, t.config, t.status, t.batch, t.options, t.created_at, t.updated_at, t.ended_at,
    (SELECT count(*)::int FROM tournament_games tg WHERE tg.tournament_id = t.tournament_id) AS games,
    (SELECT count(*)::int FROM tournament_games tg JOIN games g USING (game_id)
      WHERE tg.tournament_id = t.tournament_id AND (${STATE_SQL}) = 'ended') AS ended,
    (SELECT count(*)::int FROM tournament_games tg JOIN games g USING (game_id)
      WHERE tg.tournament_id = t.tournament_id AND (${STATE_SQL}) = 'failed') AS failed
  FROM tournaments t`;

function toRecord(r: TournamentRow): TournamentRecord {
  const games = Number(r.games);
  const ended = Number(r.ended);
  const failed = Number(r.failed);
  return {
    tournament_id: r.tournament_id,
    name: r.name,
    seed: Number(r.seed),
    config: r.config as Record<string, unknown>,
    status: TournamentStatus.parse(r.status),
    batch: (r.batch as unknown[] | null) ?? null,
    options: (r.options as Record<string, unknown> | null) ?? null,
    progress: { games, ended, failed, pending: games - ended - failed },
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
    ended_at: r.ended_at?.toISOString() ?? null,
  };
}

/** A tournament with its progress, or TournamentNotFoundError. */
export async function getTournament(ctx: StoreContext, tournamentId: string): Promise<TournamentRecord> {
  const [row] = await ctx.prisma.$queryRawUnsafe<TournamentRow[]>(`${SELECT_TOURNAMENTS} WHERE t.tournament_id = $1`, tournamentId);
  if (!row) throw new TournamentNotFoundError(tournamentId);
  return toRecord(row);
}

/** Tournaments newest first (at most `limit`, default 100). */
export async function listTournaments(ctx: StoreContext, options: { limit?: number } = {}): Promise<TournamentRecord[]> {
  const limit = z.number().int().min(1).max(1000).parse(options.limit ?? 100);
  const rows = await ctx.prisma.$queryRawUnsafe<TournamentRow[]>(`${SELECT_TOURNAMENTS} ORDER BY t.created_at DESC, t.tournament_id DESC LIMIT $1`, limit);
  return rows.map(toRecord);
}

/**
 * Registers a tournament (status `created`). The same id with the same config again returns the
 * stored one; with another config it is an InvalidInputError.
 *
 * @example const t = await createTournament(ctx, { config: parsedConfig })
 */
export async function createTournament(ctx: StoreContext, input: CreateTournamentInput): Promise<TournamentRecord> {
  const id = input.tournament_id ?? newTournamentId();
  const name = input.name ?? id;
  await ctx.prisma.$executeRaw`
    INSERT INTO tournaments (tournament_id, name, seed, config, options, status)
    VALUES (${id}, ${name}, ${input.config.seed}, ${JSON.stringify(input.config)}::jsonb,
            ${input.options ? JSON.stringify(input.options) : null}::jsonb, 'created')
    ON CONFLICT (tournament_id) DO NOTHING`;
  const t = await getTournament(ctx, id);
  if (canonicalJson(t.config) !== canonicalJson(input.config)) throw new InvalidInputError(`tournament ${id} already exists with another config`);
  return t;
}

/** Moves a tournament's lifecycle (ended/aborted also stamp ended_at). */
export async function setTournamentStatus(ctx: StoreContext, tournamentId: string, status: TournamentStatus): Promise<void> {
  const done = status === 'ended' || status === 'aborted';
  const n = await ctx.prisma.tournament.updateMany({
    where: { tournamentId },
    data: { status: TournamentStatus.parse(status), updatedAt: new Date(), ...(done ? { endedAt: new Date() } : {}) },
  });
  if (n.count === 0) throw new TournamentNotFoundError(tournamentId);
}

/**
 * What a tournament's games have cost so far: the sum of their recorded provider calls (USD).
 * Calls of models missing from the price table count 0 (see src/providers/pricing.ts).
 */
export async function tournamentCost(ctx: StoreContext, tournamentId: string): Promise<number> {
  const rows = await ctx.prisma.$queryRaw<{ usd: number | null }[]>`
    SELECT SUM(pc.cost_usd)::float8 AS usd FROM provider_calls pc
    JOIN tournament_games tg ON tg.game_id = pc.game_id WHERE tg.tournament_id = ${tournamentId}`;
  return rows[0]?.usd ?? 0;
}

/** Merges `patch` into a tournament's options (e.g. a new `max_cost_usd` on resume). */
export async function patchTournamentOptions(ctx: StoreContext, tournamentId: string, patch: Record<string, unknown>): Promise<void> {
  const n = await ctx.prisma.$executeRaw`
    UPDATE tournaments SET options = COALESCE(options, '{}'::jsonb) || ${JSON.stringify(patch)}::jsonb, updated_at = now()
    WHERE tournament_id = ${tournamentId}`;
  if (n === 0) throw new TournamentNotFoundError(tournamentId);
}

/** Records the batch about to be played (see Tournament.batch in schema.prisma). */
export async function saveBatch(ctx: StoreContext, tournamentId: string, batch: readonly unknown[]): Promise<void> {
  const n = await ctx.prisma.$executeRaw`
    UPDATE tournaments SET batch = ${JSON.stringify(batch)}::jsonb, updated_at = now() WHERE tournament_id = ${tournamentId}`;
  if (n === 0) throw new TournamentNotFoundError(tournamentId);
}

export type LinkInput = { game_id: string; key: string; round: number; table: number; seats: readonly string[] };

/**
 * Links a created game to a tournament under its schedule key. Idempotent: linking the same game
 * under the same key again is a no-op; another game under that key (or that game under another
 * key or tournament) is an InvalidInputError.
 */
export async function linkGame(ctx: StoreContext, tournamentId: string, link: LinkInput): Promise<void> {
  const inserted = await ctx.prisma.$executeRaw`
    INSERT INTO tournament_games (tournament_id, game_id, round, "table", key, seats)
    VALUES (${tournamentId}, ${link.game_id}, ${link.round}, ${link.table}, ${link.key}, ${JSON.stringify(link.seats)}::jsonb)
    ON CONFLICT DO NOTHING`;
  if (inserted === 1) return;
  const row = await ctx.prisma.tournamentGame.findUnique({ where: { gameId: link.game_id } });
  if (!row || row.tournamentId !== tournamentId || row.key !== link.key)
    throw new InvalidInputError(`game ${link.game_id} cannot be linked to tournament ${tournamentId} as ${link.key}: the game or the key is linked otherwise`);
}

type GameRow = {
  game_id: string;
  key: string;
  round: number;
  table: number;
  seats: unknown;
  status: string;
  state: TournamentGameRecord['state'];
  placements: unknown;
  error: string | null;
  degraded: boolean | null;
};

/** A tournament's games with their status and placements, in key order. */
export async function tournamentGames(ctx: StoreContext, tournamentId: string): Promise<TournamentGameRecord[]> {
  const rows = await ctx.prisma.$queryRawUnsafe<GameRow[]>(
    `SELECT tg.game_id, tg.key, tg.round, tg."table", tg.seats, g.status, ${STATE_SQL} AS state, g.placements, tg.error, (g.options->'degraded') IS NOT NULL AS degraded
     FROM tournament_games tg JOIN games g USING (game_id) WHERE tg.tournament_id = $1 ORDER BY tg.key`,
    tournamentId,
  );
  return rows.map((r) => ({
    game_id: r.game_id,
    key: r.key,
    round: Number(r.round),
    table: Number(r.table),
    seats: r.seats as string[],
    status: r.status,
    state: r.state,
    placements: (r.placements as Placement[] | null) ?? null,
    error: r.error,
    degraded: r.degraded === true,
  }));
}

/**
 * Marks a tournament game failed, with why: it counts for no one and is not played again. The
 * game itself becomes `failed` with that reason unless it ended (so `tiltyard resume` leaves it
 * alone, and `games` and REST say why).
 */
export async function markGameFailed(ctx: StoreContext, tournamentId: string, gameId: string, error: string): Promise<void> {
  const n = await ctx.prisma.$executeRaw`
    WITH g AS (UPDATE games SET status = 'failed', failure_reason = ${error.slice(0, 2000)}, updated_at = now(), ended_at = now()
               WHERE game_id = ${gameId} AND status IN ('created', 'running') RETURNING 1)
    UPDATE tournament_games SET error = ${error.slice(0, 2000)} WHERE tournament_id = ${tournamentId} AND game_id = ${gameId}`;
  if (n === 0) throw new InvalidInputError(`game ${gameId} is not a game of tournament ${tournamentId}`);
}

/**
 * Stores a tournament's ratings (the standings recomputed from all its results), replacing the
 * previous ones, in one statement. The `ordinal` column keeps μ − 3σ for readers of older
 * releases; nothing ranks by it any more (the standings rank by the fitted μ).
 */
export async function saveRatings(ctx: StoreContext, tournamentId: string, ratings: readonly RatingInput[]): Promise<void> {
  const rows = JSON.stringify(ratings.map((r) => ({ agent: r.agent, mu: r.mu, sigma: r.sigma, ordinal: r.mu - 3 * r.sigma, games: r.games, wins: r.wins, standing: r })));
  await ctx.prisma.$executeRaw`
    INSERT INTO ratings (tournament_id, agent, mu, sigma, ordinal, games, wins, standing, updated_at)
    SELECT ${tournamentId}, r.agent, r.mu, r.sigma, r.ordinal, r.games, r.wins, r.standing, now()
    FROM json_to_recordset(${rows}::json) AS r(agent text, mu float8, sigma float8, ordinal float8, games int, wins int, standing json)
    ON CONFLICT (tournament_id, agent) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,
      games = excluded.games, wins = excluded.wins, standing = excluded.standing, updated_at = excluded.updated_at`;
}

/**
 * A tournament's stored ratings in the standings' order: best μ first, equal μ in the order of the
 * config's entrants (as `standings` breaks ties), so a stored table and a recomputed one list the
 * same rows in the same order.
 */
export async function readRatings(ctx: StoreContext, tournamentId: string): Promise<RatingRecord[]> {
  const rows = await ctx.prisma.$queryRawUnsafe<{ standing: unknown; updated_at: Date }[]>(
    `SELECT r.standing, r.updated_at FROM ratings r JOIN tournaments t USING (tournament_id)
     WHERE r.tournament_id = $1
     ORDER BY r.mu DESC,
       (SELECT e.i FROM jsonb_array_elements_text(t.config->'entrants') WITH ORDINALITY AS e(agent, i) WHERE e.agent = r.agent),
       r.agent`,
    tournamentId,
  );
  // mu and sigma have columns of their own (to sort and query by); the standing holds them too.
  return rows.map((r) => ({ standing: r.standing as Standing, updated_at: r.updated_at.toISOString() }));
}
