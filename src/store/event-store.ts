import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { recordActions } from './actions.js';
import { readActions, type ActionRow } from './cold-actions.js';
import { checkColdSeals } from './cold-reads.js';
import { compactGame, type CompactOutcome } from './compact.js';
import { compactEnded, type CompactAllOptions, type CompactAllResult } from './compact-all.js';
import { dropThawed, thawGames, type ThawAllResult, type ThawSelection } from './thaw-all.js';
import { append } from './append.js';
import { appendGame, appendPrepared, type PreparedGame, type WholeGame } from './append-game.js';
import type { StoreContext } from './context.js';
import { clearRunFailures, createGame, getGame, listGames, markDegraded, recordRunFailure, setStatus, type CreateGameInput } from './games.js';
import { forksOf, type ForkPage } from './forks.js';
import { lastSeq } from './heads.js';
import { diffToSchema } from './migrations.js';
import { read } from './reads.js';
import { stateAt } from './snapshots.js';
import type {
  ActionRecord,
  AppendOptions,
  AppendResult,
  GamePage,
  GameRecord,
  GameStatus,
  ListGamesFilter,
  Page,
} from './types.js';
import { modelUsage, readProviderCalls, recordProviderCalls, type ModelUsage, type ProviderCallRow } from './provider-calls.js';
import { readReasoning, readTraces, recordTraces, type ReasoningRow, type TraceRecord } from './traces.js';
import { verifyChain } from './verify.js';
import { readSeatTokens, recordSeatTokens, type SeatTokenRow } from './seat-tokens.js';
import { TournamentStore } from './tournament-store.js';
import { LadderStore } from './ladder-store.js';
import type { TransientWait } from './retry.js';

/**
 * The event store, one per process (get it from openStore). Every method is a thin call to the
 * function of the same name; see each for the details.
 *
 * - createGame(input) — registers a game (idempotent) with its seq-0 snapshot
 * - getGame(id) / listGames(filter, page) — game rows; keyset pages, newest first
 * - forksOf(id, {upToSeq, limit, withoutKeptDecks}) — the games forked from a game, oldest first, and how many
 * - append(id, expectedSeq, events, {state, actions}) — one step, atomically; stale → ConcurrencyConflictError
 * - appendGame(id, {events, actions, snapshots}) — a whole game played in memory, in one transaction
 * - appendPrepared(id, prepared) — the same, prepared elsewhere (prepareWholeGame, e.g. on a worker thread)
 * - read(id, afterSeq, limit) — events in seq order, byte-identical to what was appended
 * - lastSeq(id) — the head of the log
 * - stateAt(id, seq) — the state after `seq`, from the nearest snapshot
 * - recordActions(id, actions) — agent decisions outside an append
 * - recordTraces(id, traces) / readTraces(id, player?) — agent decision traces (agent_traces); readReasoning(id, afterId) — their stated reasoning only
 * - recordSeatTokens(id, rows) / readSeatTokens(id) — human seats' token hashes (never the tokens)
 * - recordProviderCalls(id, calls) / readProviderCalls(id) — LLM calls and reported usage; modelUsage(provider, model)
 * - verifyChain(id) — the first seq whose hash link is broken, or null
 * - checkSeals(id) — a cold game's seals against its stored bytes, nothing decoded; IntegrityError if one fails
 * - readActions(id) — the actions rows (decisions), hot or compacted
 * - compact(id) / compactEnded(options) — an ended game's events and actions to cold storage (compact.ts)
 * - thaw(selection, options) / dropThawed(selection) — compacted games as SQL rows again (thaw.ts)
 * - setStatus(id, status) — lifecycle changes that no event carries (aborted)
 * - recordRunFailure(id, reason, max) / clearRunFailures(id) — failed runner attempts in a row; `failed` at max
 * - markDegraded(id, degraded) — a seat ran out of budget: the game measures no model (options.degraded)
 * - tournaments — tournaments, their games and ratings (TournamentStore)
 * - ladders — ladders, their entrants, deals and rating history (LadderStore)
 * - schemaDrift() — what differs between the live database and schema.prisma
 * - close()
 */
export class EventStore {
  constructor(
    /** For store internals and tests; callers use the methods. */
    readonly ctx: StoreContext,
    private readonly backendFactory: SqlMigrationAwareDriverAdapterFactory,
    private readonly onClose: () => Promise<void>,
  ) {}

  get backend(): 'pglite' | 'postgres' {
    return this.ctx.backend;
  }

  /** The generated Prisma client, for cold-path queries the methods do not cover. */
  get prisma() {
    return this.ctx.prisma;
  }

  createGame(input: CreateGameInput): Promise<GameRecord> {
    return this.ctx.faults.run('createGame', () => createGame(this.ctx, input));
  }

  getGame(gameId: string): Promise<GameRecord> {
    return this.ctx.faults.run('getGame', () => getGame(this.ctx, gameId));
  }

  listGames(filter?: ListGamesFilter, page?: Page): Promise<GamePage> {
    return this.ctx.faults.run('listGames', () => listGames(this.ctx, filter, page));
  }

  forksOf(parentId: string, opts?: { upToSeq?: number; limit?: number; withoutKeptDecks?: boolean }): Promise<ForkPage> {
    return this.ctx.faults.run('forksOf', () => forksOf(this.ctx, parentId, opts));
  }

  setStatus(gameId: string, status: GameStatus): Promise<void> {
    return this.ctx.faults.run('setStatus', () => setStatus(this.ctx, gameId, status));
  }

  recordRunFailure(gameId: string, reason: string, maxFailures: number): Promise<GameRecord> {
    return this.ctx.faults.run('recordRunFailure', () => recordRunFailure(this.ctx, gameId, reason, maxFailures));
  }

  /** Marks a game degraded once (options.degraded): see src/runner/degraded.ts. */
  markDegraded(gameId: string, degraded: Record<string, unknown>): Promise<boolean> {
    return this.ctx.faults.run('markDegraded', () => markDegraded(this.ctx, gameId, degraded));
  }

  clearRunFailures(gameId: string): Promise<void> {
    return this.ctx.faults.run('clearRunFailures', () => clearRunFailures(this.ctx, gameId));
  }

  append(
    gameId: string,
    expectedSeq: number,
    events: readonly GameEvent[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    return this.ctx.faults.run('append', () => append(this.ctx, gameId, expectedSeq, events, options));
  }

  /** `cold`: an ended game goes straight to cold storage, compacted (cold-game.ts). */
  appendGame(gameId: string, game: WholeGame, options: { cold?: boolean } = {}): Promise<AppendResult> {
    return this.ctx.faults.run('appendGame', () => appendGame(this.ctx, gameId, game, options));
  }

  appendPrepared(gameId: string, game: PreparedGame): Promise<AppendResult> {
    return this.ctx.faults.run('appendPrepared', () => appendPrepared(this.ctx, gameId, game));
  }

  /** Events per snapshot: an append crossing a multiple of this writes one. */
  get snapshotEvery(): number {
    return this.ctx.snapshotEvery;
  }

  /** Whether whole ended games are stored compacted at once (appendGame's `cold`, for the tournament runner). */
  get compactsWholeGames(): boolean {
    return this.ctx.compactWholeGames;
  }

  private tournamentStore: TournamentStore | undefined;
  private ladderStore: LadderStore | undefined;

  get ladders(): LadderStore {
    return (this.ladderStore ??= new LadderStore(this.ctx));
  }

  get tournaments(): TournamentStore {
    return (this.tournamentStore ??= new TournamentStore(this.ctx));
  }

  read(gameId: string, afterSeq = 0, limit = 1000): Promise<GameEvent[]> {
    return this.ctx.faults.run('read', () => read(this.ctx, gameId, afterSeq, limit));
  }

  lastSeq(gameId: string): Promise<number> {
    return this.ctx.faults.run('lastSeq', () => lastSeq(this.ctx, gameId));
  }

  stateAt(gameId: string, seq?: number): Promise<GameState> {
    return this.ctx.faults.run('stateAt', () => stateAt(this.ctx, gameId, seq));
  }

  recordActions(gameId: string, actions: readonly ActionRecord[]): Promise<number> {
    return this.ctx.faults.run('recordActions', () => recordActions(this.ctx, gameId, actions));
  }

  recordTraces(gameId: string, traces: readonly TraceRecord[]): Promise<void> {
    return this.ctx.faults.run('recordTraces', () => recordTraces(this.ctx, gameId, traces));
  }

  readTraces(gameId: string, playerId?: string): Promise<Array<TraceRecord & { created_at: string }>> {
    return this.ctx.faults.run('readTraces', () => readTraces(this.ctx, gameId, playerId));
  }

  /** LLM seats' stated reasoning, traces after row `afterId` (see readReasoning). */
  readReasoning(gameId: string, afterId = 0): Promise<ReasoningRow[]> {
    return this.ctx.faults.run('readReasoning', () => readReasoning(this.ctx, gameId, afterId));
  }

  /** A game's human seats' token hashes (seat-tokens.ts): recorded once, read by the seat routes. */
  recordSeatTokens(gameId: string, rows: readonly SeatTokenRow[]): Promise<void> {
    return this.ctx.faults.run('recordSeatTokens', () => recordSeatTokens(this.ctx, gameId, rows));
  }

  readSeatTokens(gameId: string): Promise<SeatTokenRow[]> {
    return this.ctx.faults.run('readSeatTokens', () => readSeatTokens(this.ctx, gameId));
  }

  recordProviderCalls(gameId: string | null, calls: readonly ProviderCallRow[]): Promise<void> {
    return this.ctx.faults.run('recordProviderCalls', () => recordProviderCalls(this.ctx, gameId, calls));
  }

  /** A model's recent token use (see provider-calls.ts), for cost estimates. */
  modelUsage(provider: string, model: string): Promise<ModelUsage | null> {
    return this.ctx.faults.run('modelUsage', () => modelUsage(this.ctx, provider, model));
  }

  readProviderCalls(gameId: string): Promise<ProviderCallRow[]> {
    return this.ctx.faults.run('readProviderCalls', () => readProviderCalls(this.ctx, gameId));
  }

  readActions(gameId: string): Promise<ActionRow[]> {
    return this.ctx.faults.run('readActions', () => readActions(this.ctx, gameId));
  }

  compact(gameId: string): Promise<CompactOutcome> {
    return this.ctx.faults.run('compact', () => compactGame(this.ctx, gameId));
  }

  /** Not under the retry policy as a whole: each game is one statement, retried on its own. */
  compactEnded(options?: CompactAllOptions): Promise<CompactAllResult> {
    return compactEnded(this.ctx, options);
  }

  /** Not under the retry policy as a whole: each game is one statement, retried on its own. */
  thaw(selection: ThawSelection, options?: Parameters<typeof thawGames>[2]): Promise<ThawAllResult> {
    return thawGames(this.ctx, selection, options);
  }

  dropThawed(selection: ThawSelection): Promise<{ games: number }> {
    return this.ctx.faults.run('dropThawed', () => dropThawed(this.ctx, selection));
  }

  /** Every read of a cold game checks this first; for callers that read none of its events but show the game. */
  checkSeals(gameId: string): Promise<void> {
    return this.ctx.faults.run('checkSeals', () => checkColdSeals(this.ctx, gameId));
  }

  verifyChain(gameId: string): Promise<number | null> {
    return this.ctx.faults.run('verifyChain', () => verifyChain(this.ctx, gameId));
  }

  /**
   * The SQL that would take the live database to prisma/schema.prisma, or null when they agree:
   * drift made by hand, or a migration the schema has that this database lacks.
   */
  schemaDrift(): Promise<string | null> {
    return diffToSchema(this.backendFactory);
  }

  /**
   * Runs a query of the caller's own (a cold path through `prisma`) under the store's transient
   * fault policy, as every method here is.
   */
  retrying<T>(what: string, op: () => Promise<T>): Promise<T> {
    return this.ctx.faults.run(what, op);
  }

  /** Runs `fn` with at most `maxWaitMs` of waiting for the database in any store call it makes. */
  withRetryBudget<T>(maxWaitMs: number, fn: () => T): T {
    return this.ctx.faults.withBudget(maxWaitMs, fn);
  }

  /** Hears every wait for the database (for a log line saying what this process waits for). */
  onTransientWait(listener: (wait: TransientWait) => void, recovered?: (what: string, waitedMs: number) => void): () => void {
    return this.ctx.faults.onWait(listener, recovered);
  }

  private closing: Promise<void> | undefined;

  /** Closes the database (idempotent). */
  close(): Promise<void> {
    this.ctx.faults.closed = true;
    this.closing ??= this.onClose();
    return this.closing;
  }
}
