import { performance } from 'node:perf_hooks';
import type { GameEvent } from '../protocol/index.js';
import type { SeatOptions } from '../runner/catch-up.js';
import { wallClock, type InputClock } from '../runner/input-clock.js';
import { registerPersistentGame } from '../runner/persistent-runner.js';
import { RunnerError } from '../runner/runner-errors.js';
import { capRefusal, unpricedEntrants } from '../agents/seat/unpriced.js';
import { SpendLedger, type CostLedger } from '../providers/spend-ledger.js';
import { FencedWriteError, isDiskFull, StoreUnavailableError, type EventStore, type TournamentGameRecord, type TournamentRecord, type TournamentStore } from '../store/index.js';
import { gameRules, parseTournamentConfig } from './config.js';
import { nextGames } from './formats.js';
import { planTournament } from './plan.js';
import { tournamentGameId } from './game-id.js';
import { playScheduled, type CommitPolicy, type GameOutcome, type GamePorts } from './play-scheduled.js';
import { PlayWorkers } from './play-workers.js';
import { runPool } from './pool.js';
import { byKey, ratedResultsOf, resultsOf, seatPlacements } from './results.js';
import type { TournamentEvent, TournamentOutcome } from './runner-events.js';
import { LIVE_RESAMPLES, standings } from './standings.js';
import type { GameResult, ScheduledGame, Standing, TournamentConfig } from './types.js';

export type TournamentRunnerOptions = {
  store: EventStore;
  /** Games in flight at once (default 1): LLM and subprocess games wait on I/O, so more overlap. */
  concurrency?: number;
  /** Input timestamps of the games (default: the wall clock). */
  clock?: InputClock;
  /** Milliseconds, for throttling live ratings (default: performance.now). */
  now?: () => number;
  /** Once aborted, no game starts; games in flight stop at a step boundary; the tournament stays resumable. */
  signal?: AbortSignal;
  onEvent?: (event: TournamentEvent) => void;
  /** Every stored batch of a game's events (a game bus for live spectators). */
  publish?: (gameId: string, events: readonly GameEvent[]) => void;
  commit?: CommitPolicy;
  /** Live ratings are recomputed and stored at most this often while games finish (default 1,000 ms). */
  ratingsEveryMs?: number;
  seats?: SeatOptions;
  /**
   * Worker threads that play whole built-in games and hash them while this thread writes (default
   * 0: all on this thread). One is enough on two cores: the database needs the other half.
   */
  workers?: number;
  /**
   * Plays one created game instead of the runner (default: playScheduled with the options above).
   * The server passes its own, so tournament games share its game limit, pace and bus like any game.
   */
  play?: (gameId: string, cap: PlayCap) => Promise<GameOutcome>;
  /** Stored with every game it creates (GameRecord.options), e.g. the server's pace and spectator delay. */
  gameOptions?: Record<string, unknown>;
  /**
   * Puts the failed games of the batch being played back in play before going on (`tournament
   * resume`, `POST /tournaments/:id/resume`): each gets a new attempt, and counts once it ends.
   * Failed games of earlier batches stay failed: later batches were scheduled with them as draws.
   */
  retryFailed?: boolean;
  /**
   * Stop starting games once the tournament's recorded provider cost reaches this many USD (games in
   * flight finish and count); the tournament then ends its run as `stopped_by_budget`, resumable with a
   * higher limit. A number is stored with the tournament (a later resume keeps it); null lifts a
   * stored limit; undefined keeps whatever is stored.
   */
  maxCostUsd?: number | null;
  /**
   * The coordinator lease's fencing token (TournamentStore.takeFence): every write to the
   * tournament checks it, so a coordinator whose lease was taken over cannot write after the new one.
   */
  fence?: number;
  /**
   * Opens the cost cap's ledger (default: a SpendLedger in this process). A scaled-out run passes the
   * Redis one (src/scale/redis-spend-ledger.ts), which its workers join, so the cap holds across them.
   */
  openLedger?: (capUsd: number, spentUsd: number) => Promise<ClosableLedger>;
};

/** A ledger the runner opened: closed when the run ends; `sync` reads what other processes did (the shared worst case). */
export type ClosableLedger = CostLedger & { close?: () => Promise<void>; sync?: () => Promise<unknown> };

/**
 * The tournament's cost cap for a game played by `play`: seats reserve on `spend`; `signal` aborts at
 * its first refusal; `tournament_id` tells a worker elsewhere which shared ledger to join.
 */
export type PlayCap = { spend?: CostLedger; signal?: AbortSignal; tournament_id?: string };

/** A game of the schedule as the runner tracks it (a stored TournamentGameRecord, or not yet created). */
type Tracked = Pick<TournamentGameRecord, 'game_id' | 'key' | 'round' | 'table' | 'seats' | 'state' | 'placements' | 'error' | 'degraded'>;

/** The config a stored tournament was created with, re-validated (its agents must still resolve). */
export function storedConfig(t: TournamentRecord): TournamentConfig {
  const parsed = parseTournamentConfig(t.config);
  if (!parsed.ok) throw new RunnerError(`tournament ${t.tournament_id} cannot run here: ${parsed.message.split('\n')[0]}`);
  return parsed.config;
}

/**
 * The format's next batch, minus games already settled. Failed games have no result, so a format
 * offers them again; when that is all it offers, it is asked once more with each failed game as a
 * draw, so it can move past them (deterministic: failures are stored).
 */
function nextBatch(config: TournamentConfig, games: ReadonlyMap<string, Tracked>): ScheduledGame[] | 'done' {
  const settled = (g: ScheduledGame) => {
    const s = games.get(g.key)?.state;
    return s === 'ended' || s === 'failed';
  };
  const results = resultsOf([...games.values()]);
  let next = nextGames(config, results);
  if (next !== 'done' && next.every(settled)) {
    const draws: GameResult[] = [...games.values()].filter((g) => g.state === 'failed').map((g) => ({ key: g.key, round: g.round, seats: g.seats, placements: g.seats.map(() => 1) }));
    next = nextGames(config, [...results, ...draws].sort(byKey));
  }
  if (next === 'done') return 'done';
  const fresh = next.filter((g) => !settled(g));
  return fresh.length ? fresh : 'done';
}

/** Puts the batch's failed games back in play (see TournamentRunnerOptions.retryFailed); how many. */
async function retryFailedOfBatch(ts: TournamentStore, record: TournamentRecord): Promise<number> {
  const batch = new Set(((record.batch as ScheduledGame[] | null) ?? []).map((g) => g.key));
  const failed = (await ts.games(record.tournament_id)).filter((g) => g.state === 'failed' && batch.has(g.key));
  return (await ts.retryFailed(record.tournament_id, failed.map((g) => g.game_id))).length;
}

/**
 * Runs (or resumes) a stored tournament to its end: asks the format for a batch, saves it, creates
 * each game under a deterministic id (tournament id + schedule key) and links it, plays up to
 * `concurrency` at once, records each result, and recomputes the ratings from all results in key
 * order. Crash-safe: a batch is saved before its games exist, so a resumed runner finishes exactly
 * that batch (finding its games by id: no game is lost, repeated or counted twice) before asking
 * the format again with exactly the results an uninterrupted run would have had. A game that
 * throws is recorded as failed and the tournament goes on; only a lost database stops it.
 *
 * @example const out = await runTournament('trn_1a2b', { store, concurrency: 8, onEvent: console.log })
 */
export async function runTournament(tournamentId: string, options: TournamentRunnerOptions): Promise<TournamentOutcome> {
  const { store, signal } = options;
  const ts = options.fence === undefined ? store.tournaments : store.tournaments.fenced(tournamentId, options.fence);
  const now = options.now ?? (() => performance.now());
  const emit = (e: TournamentEvent) => options.onEvent?.(e);
  let record = await ts.get(tournamentId);
  const config = storedConfig(record);
  if (options.retryFailed && (await retryFailedOfBatch(ts, record))) record = await ts.get(tournamentId);
  const games = new Map<string, Tracked>((await ts.games(tournamentId)).map((g) => [g.key, g]));
  const count = (state: Tracked['state']) => [...games.values()].filter((g) => g.state === state).length;

  const rated = () => ratedResultsOf([...games.values()], config.rate_degraded === true);
  let table: Standing[] = standings(config, rated(), { resamples: LIVE_RESAMPLES });
  /** The cost limit (USD, null = none) and the recorded cost so far, refreshed as games end. */
  const budget: { limit: number | null; spent: number } = { limit: null, spent: 0 };
  let lastRated = -Infinity;
  let saving: Promise<void> = Promise.resolve();
  /** Recomputes the standings from every result in key order and stores them (saves in order). */
  const rate = (final = false): Promise<Standing[]> => {
    table = standings(config, rated(), final ? {} : { resamples: LIVE_RESAMPLES });
    lastRated = now();
    const snapshot = table;
    saving = saving.then(() => ts.saveRatings(tournamentId, snapshot));
    return saving.then(() => snapshot);
  };
  let ledger: ClosableLedger | null = null;
  const budgetOf = () => (budget.limit === null ? {} : { cost_usd: budget.spent, max_cost_usd: budget.limit, ...(ledger ? { worst_call_usd: ledger.worstCallUsd } : {}) });
  const finish = async (status: TournamentOutcome['status']): Promise<TournamentOutcome> => {
    const final = await rate(true);
    if (status === 'ended' || status === 'stopped_by_budget') await ts.setStatus(tournamentId, status);
    if (budget.limit !== null) budget.spent = await ts.cost(tournamentId);
    await ledger?.sync?.();
    // Games created and not finished when the run stops: cut by the cap (or the signal), kept out
    // of the ratings, and resumed from their last step by `resume`.
    const planned = planTournament(config).games;
    const outcome = { tournament_id: tournamentId, status, planned, done: count('ended'), failed: count('failed'), stopped: status === 'ended' ? 0 : count('pending'), standings: final, ...budgetOf(), ...(config.allow_unpriced && unpricedEntrants(config.entrants).length ? { cost_unknown: true } : {}) };
    emit({ type: 'tournament_ended', ...outcome });
    return outcome;
  };
  if (record.status === 'ended') return finish('ended');

  const storedLimit = record.options?.['max_cost_usd'];
  budget.limit = options.maxCostUsd !== undefined ? options.maxCostUsd : typeof storedLimit === 'number' ? storedLimit : null;
  if (options.maxCostUsd !== undefined && options.maxCostUsd !== (storedLimit ?? null)) await ts.patchOptions(tournamentId, { max_cost_usd: options.maxCostUsd });
  if (budget.limit !== null) budget.spent = await ts.cost(tournamentId);
  if (budget.limit !== null) {
    const refused = capRefusal(config.entrants);
    if (refused) throw new RunnerError(`tournament ${tournamentId}: ${refused}`);
  }
  // One ledger for every game in flight: each LLM call reserves its worst case on it before it is
  // sent, so games at once cannot overspend (its first refusal stops every game at a step boundary).
  ledger = budget.limit === null ? null : options.openLedger ? await options.openLedger(budget.limit, budget.spent) : new SpendLedger(budget.limit, budget.spent);
  const overBudget = () => budget.limit !== null && (budget.spent >= budget.limit || ledger?.stopped.aborted === true);
  const gameSignal = ledger ? (signal ? AbortSignal.any([signal, ledger.stopped]) : ledger.stopped) : signal;
  const seats = ledger ? { ...options.seats, spend: ledger } : options.seats;

  await ts.setStatus(tournamentId, 'running');
  emit({ type: 'tournament_started', tournament_id: tournamentId, resumed: games.size > 0, scheduled: games.size, done: count('ended'), failed: count('failed') });
  const workers = options.workers ? new PlayWorkers(options.workers) : null;
  const ports: GamePorts = {
    store,
    clock: options.clock ?? wallClock,
    commit: options.commit ?? 'auto',
    ...(gameSignal ? { signal: gameSignal } : {}),
    ...(options.publish ? { publish: options.publish } : {}),
    ...(seats ? { seats } : {}),
    ...(workers ? { workers } : {}),
  };
  let fatal: Error | null = null;

  const playOne = async (g: ScheduledGame): Promise<void> => {
    const gameId = tournamentGameId(tournamentId, g.key);
    const tracked: Tracked = games.get(g.key) ?? { game_id: gameId, key: g.key, round: g.round, table: g.table, seats: g.seats, state: 'pending', placements: null, error: null };
    games.set(g.key, tracked);
    let placements: number[] | null = null;
    try {
      const created = await registerPersistentGame(store, { seed: g.seed, agents: g.seats, rules: gameRules(config), gameId, ...(options.gameOptions ? { options: options.gameOptions } : {}) });
      await ts.linkGame(tournamentId, { game_id: gameId, key: g.key, round: g.round, table: g.table, seats: g.seats });
      const out = await (options.play ? options.play(gameId, ledger ? { spend: ledger, signal: ledger.stopped, tournament_id: tournamentId } : {}) : playScheduled(ports, gameId, created));
      if (out.status === 'pending') return;
      placements = seatPlacements(g.seats.length, out.placements);
      Object.assign(tracked, { state: 'ended', placements: out.placements, degraded: out.degraded === true });
    } catch (e) {
      // A database gone for longer than the store waits, a full disk (also as a worker's reason), or
      // a newer coordinator: stop, not fail the game.
      if (e instanceof StoreUnavailableError || e instanceof FencedWriteError || isDiskFull(e)) {
        fatal ??= e instanceof Error ? e : new Error(String(e));
        return;
      }
      const error = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
      try {
        await ts.markFailed(tournamentId, gameId, error);
      } catch (again) {
        fatal ??= again instanceof Error ? again : new Error(String(again));
        return;
      }
      Object.assign(tracked, { state: 'failed', error });
    }
    if (budget.limit !== null) budget.spent = await ts.cost(tournamentId);
    const live = now() - lastRated >= (options.ratingsEveryMs ?? 1000) ? await rate() : null;
    emit({ type: 'game_ended', tournament_id: tournamentId, game_id: gameId, key: g.key, seats: g.seats, placements, error: tracked.error, done: count('ended'), failed: count('failed'), scheduled: games.size, standings: live });
  };

  const unsettled = (g: ScheduledGame) => {
    const s = games.get(g.key)?.state;
    return s !== 'ended' && s !== 'failed';
  };
  try {
    let batch = (record.batch as ScheduledGame[] | null) ?? null;
    for (;;) {
      const todo = batch?.filter(unsettled) ?? [];
      if (todo.length === 0) {
        const next = nextBatch(config, games);
        if (next === 'done') return await finish('ended');
        if (overBudget()) return await finish('stopped_by_budget');
        batch = next;
        await ts.saveBatch(tournamentId, batch);
        continue;
      }
      await runPool(todo, options.concurrency ?? 1, playOne, () => signal?.aborted === true || fatal !== null || overBudget());
      // Set by the pool's workers (closures), which the compiler's narrowing does not see.
      const lost = fatal as Error | null;
      if (lost) throw lost;
      if (todo.some(unsettled)) return await finish(signal?.aborted !== true && overBudget() ? 'stopped_by_budget' : 'stopped');
      await rate();
    }
  } catch (e) {
    // Out of disk space wherever it struck (a game, a batch, the ratings, the end): `stopped`, to be
    // resumed once there is room, never `ended` with its games failed. Best effort: the disk is full.
    if (isDiskFull(e)) await ts.setStatus(tournamentId, 'stopped').catch(() => undefined);
    throw e;
  } finally {
    await workers?.close();
    await ledger?.close?.();
  }
}
