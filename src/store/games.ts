import { initialState, type GameConfigInput } from '../game/index.js';
import type { Placement } from '../protocol/index.js';
import { canonicalJson } from './canonical-json.js';
import type { StoreContext } from './context.js';
import { GameExistsError, GameNotFoundError, InvalidInputError } from './errors.js';
import type { Game, Prisma } from './generated/client.js';
import { GENESIS_HASH, stateHash } from './hash.js';
import {
  GameStatus,
  ListGamesFilter,
  Page,
  SeatRecord,
  type GamePage,
  type GameRecord,
} from './types.js';

export type CreateGameInput = {
  seed: number;
  config?: GameConfigInput;
  /** Defaults to config.game_id, then to the engine's default for the seed. */
  game_id?: string;
  seats?: readonly SeatRecord[];
  /** What the server runs the game with besides its config (pace, spectator delay…); default {}. */
  options?: Record<string, unknown>;
};

/** A games row as the store hands it out. */
export function toRecord(g: Game): GameRecord {
  return {
    game_id: g.gameId,
    seed: Number(g.seed),
    config: g.config as Record<string, unknown>,
    rules_version: g.rulesVersion,
    status: GameStatus.parse(g.status),
    seats: g.seats as SeatRecord[],
    last_seq: g.lastSeq,
    last_hash: g.lastHash,
    placements: (g.placements as Placement[] | null) ?? null,
    options: (g.options as Record<string, unknown> | null) ?? {},
    run_failures: g.runFailures,
    failure_reason: g.failureReason,
    attempt: g.attempt,
    created_at: g.createdAt.toISOString(),
    updated_at: g.updatedAt.toISOString(),
    ended_at: g.endedAt?.toISOString() ?? null,
  };
}

/** A game's row, or GameNotFoundError. */
export async function getGame(ctx: StoreContext, gameId: string): Promise<GameRecord> {
  const g = await ctx.prisma.game.findUnique({ where: { gameId } });
  if (!g) throw new GameNotFoundError(gameId);
  return toRecord(g);
}

/**
 * Options a release added later, with the value a row (or a caller) without them means: public
 * spectators, nothing held. A game stored before them and resumed by a newer runner (or the other
 * way round) is the same game.
 */
const IMPLIED: Record<string, unknown> = { spectators: 'public', broadcast_held: false };

/** Options the runner writes while a game is played (markDegraded), which no caller registering it gives. */
const RUNTIME_OPTIONS: ReadonlySet<string> = new Set(['degraded']);

/** Stored and given options agree on every key, a missing key reading as its implied value (see createGame). */
function sameOptions(stored: Record<string, unknown>, given: Record<string, unknown>): boolean {
  const read = (o: Record<string, unknown>, k: string) => {
    const v = k in o ? o[k] : IMPLIED[k];
    return v === undefined ? '(absent)' : canonicalJson(v);
  };
  return [...new Set([...Object.keys(stored), ...Object.keys(given)])].every((k) => RUNTIME_OPTIONS.has(k) || read(stored, k) === read(given, k));
}

/**
 * Seats match when they differ at most by an `agent_version` the stored row predates: a runner of
 * a newer release re-registering a game stored before versions were recorded is the same game.
 */
function sameSeats(stored: readonly SeatRecord[], given: readonly SeatRecord[]): boolean {
  const bare = (s: SeatRecord, keep: boolean): SeatRecord => {
    if (keep) return s;
    const { agent_version: _, ...rest } = s;
    return rest;
  };
  return stored.length === given.length && stored.every((s, i) => canonicalJson(s) === canonicalJson(bare(given[i]!, s.agent_version !== undefined)));
}

/**
 * Registers a game before its first event, with a snapshot of its initial state at seq 0 (so
 * replay never depends on re-deriving it), in one statement. Creating the same game again (same
 * id, seed, configuration and seats, and options when given) returns the stored one: a restarted
 * runner can call it blindly. The same id with anything different is a GameExistsError.
 *
 * @example const game = await createGame(ctx, { seed: 7, config: { game_id: 'game_abc', seats: 4 }, seats })
 */
export async function createGame(ctx: StoreContext, input: CreateGameInput): Promise<GameRecord> {
  const probe = initialState(input.config ?? {}, input.seed);
  const gameId = input.game_id ?? probe.game_id;
  if (input.config?.game_id && input.config.game_id !== gameId) {
    throw new InvalidInputError(
      `game_id ${gameId} disagrees with config.game_id ${input.config.game_id}`,
    );
  }
  const config = { ...input.config, game_id: gameId };
  const state = gameId === probe.game_id ? probe : initialState(config, input.seed);
  const seats = (input.seats ?? []).map((s) => SeatRecord.parse(s));
  const snapshot = JSON.stringify(state);
  const options = input.options ?? {};
  await ctx.prisma.$executeRaw`
    WITH g AS (
      INSERT INTO games (game_id, seed, config, rules_version, status, seats, last_seq, last_hash, options)
      VALUES (${gameId}, ${input.seed}, ${JSON.stringify(config)}::jsonb, ${state.rules.rules_version}, 'created',
              ${JSON.stringify(seats)}::jsonb, 0, ${GENESIS_HASH}, ${JSON.stringify(options)}::jsonb)
      ON CONFLICT (game_id) DO NOTHING
      RETURNING game_id
    )
    INSERT INTO snapshots (game_id, seq, state, state_hash, rng)
    SELECT game_id, 0, ${snapshot}::json, ${stateHash(state)}, ${JSON.stringify(state.rng)}::jsonb FROM g`;
  const game = await getGame(ctx, gameId);
  if (
    game.seed !== input.seed ||
    canonicalJson(game.config) !== canonicalJson(config) ||
    !sameSeats(game.seats, seats) ||
    // A runner re-registering a game it resumes need not know the server's options; and options a
    // newer release added (with their defaults) do not conflict with a row stored before them.
    (input.options !== undefined && !sameOptions(game.options, options))
  ) {
    throw new GameExistsError(gameId);
  }
  return game;
}

/** Marks a game's lifecycle outside its events (e.g. `aborted` when a runner gives up on it). */
export async function setStatus(
  ctx: StoreContext,
  gameId: string,
  status: GameStatus,
): Promise<void> {
  const done = status === 'ended' || status === 'aborted' || status === 'failed';
  const n = await ctx.prisma.game.updateMany({
    where: { gameId },
    data: {
      status: GameStatus.parse(status),
      updatedAt: new Date(),
      ...(done ? { endedAt: new Date() } : {}),
    },
  });
  if (n.count === 0) throw new GameNotFoundError(gameId);
}

/** The longest failure reason kept: enough to say what broke, never a whole stack or payload. */
const MAX_REASON_CHARS = 500;

/**
 * Counts one failed runner attempt of an unfinished game and keeps its reason; at `maxFailures`
 * in a row the game becomes `failed` (and ended_at is set), in the same statement. A game that
 * is no longer created or running is left alone. Returns the game after it.
 *
 * @example const g = await recordRunFailure(ctx, id, 'skill folder gone', 3); g.status // 'running' | 'failed'
 */
export async function recordRunFailure(
  ctx: StoreContext,
  gameId: string,
  reason: string,
  maxFailures: number,
): Promise<GameRecord> {
  const text = reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason;
  await ctx.prisma.$executeRaw`
    UPDATE games SET
      run_failures = run_failures + 1,
      failure_reason = ${text},
      status = CASE WHEN run_failures + 1 >= ${maxFailures} THEN 'failed' ELSE status END,
      ended_at = CASE WHEN run_failures + 1 >= ${maxFailures} THEN now() ELSE ended_at END,
      updated_at = now()
    WHERE game_id = ${gameId} AND status IN ('created', 'running')`;
  return getGame(ctx, gameId);
}

/**
 * Marks a game degraded (options.degraded, see src/runner/degraded.ts): the first cause stays, so a
 * resumed runner re-marking it changes nothing. Returns whether this call marked it.
 */
export async function markDegraded(ctx: StoreContext, gameId: string, degraded: Record<string, unknown>): Promise<boolean> {
  const n = await ctx.prisma.$executeRaw`
    UPDATE games SET options = options || jsonb_build_object('degraded', ${JSON.stringify(degraded)}::jsonb), updated_at = now()
    WHERE game_id = ${gameId} AND options->'degraded' IS NULL`;
  return n > 0;
}

/** A runner committed a step: the failures before it were not in a row. The reason stays as history. */
export async function clearRunFailures(ctx: StoreContext, gameId: string): Promise<void> {
  await ctx.prisma.game.updateMany({ where: { gameId, runFailures: { gt: 0 } }, data: { runFailures: 0 } });
}

const encodeCursor = (g: Game): string =>
  Buffer.from(`${g.createdAt.toISOString()}|${g.gameId}`).toString('base64url');

function decodeCursor(cursor: string): { createdAt: Date; gameId: string } {
  const [ts, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(ts ?? '');
  if (Number.isNaN(createdAt.getTime()) || rest.length === 0)
    throw new InvalidInputError(`malformed cursor ${cursor}`);
  return { createdAt, gameId: rest.join('|') };
}

/**
 * Games newest first, filtered, a page at a time (keyset pagination: pages stay stable while
 * games are added).
 *
 * @example const { games, next_cursor } = await listGames(ctx, { status: 'ended' }, { limit: 20 })
 */
export async function listGames(
  ctx: StoreContext,
  filter: ListGamesFilter = {},
  page: Page = {},
): Promise<GamePage> {
  const f = ListGamesFilter.parse(filter);
  const p = Page.parse(page);
  const and: Prisma.GameWhereInput[] = [];
  if (f.status) and.push({ status: { in: Array.isArray(f.status) ? f.status : [f.status] } });
  if (f.tournament_id) and.push({ tournamentGame: { tournamentId: f.tournament_id } });
  if (f.tournament_id === null) and.push({ tournamentGame: { is: null } });
  // jsonb containment (`seats @> '[{"agent": …}]'`): one seat with that agent is enough.
  if (f.agent !== undefined) and.push({ seats: { array_contains: [{ agent: f.agent }] } });
  if (f.created_after) and.push({ createdAt: { gt: new Date(f.created_after) } });
  if (f.created_before) and.push({ createdAt: { lt: new Date(f.created_before) } });
  if (p.cursor) {
    const c = decodeCursor(p.cursor);
    and.push({
      OR: [
        { createdAt: { lt: c.createdAt } },
        { createdAt: c.createdAt, gameId: { lt: c.gameId } },
      ],
    });
  }
  const rows = await ctx.prisma.game.findMany({
    where: { AND: and },
    orderBy: [{ createdAt: 'desc' }, { gameId: 'desc' }],
    take: p.limit + 1,
  });
  const more = rows.length > p.limit;
  const games = rows.slice(0, p.limit);
  const last = games[games.length - 1];
  return { games: games.map(toRecord), next_cursor: more && last ? encodeCursor(last) : null };
}
