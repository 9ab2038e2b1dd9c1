import type { GameEvent } from '../protocol/index.js';
import { INPUT_CLOCKS } from '../runner/input-clock.js';
import type { JsonLogger } from '../lib/json-logger.js';
import { playLive } from '../live/live-game.js';
import { ConcurrencyConflictError, describeChain, isTransient, StoreUnavailableError, type EventStore, type GameRecord } from '../store/index.js';
import { playScheduled } from '../tournament/play-scheduled.js';
import type { ParsedGameJob } from './game-job.js';
import type { RedisGameBus } from './redis-bus.js';
import type { CostLedger } from '../providers/spend-ledger.js';

/**
 * What a worker's run of one job came to: settled in the store, to be tried again (and when), or
 * stopped by its tournament's cost cap (the job ends; a resume with a higher cap queues it again).
 */
export type JobOutcome = { settled: GameRecord } | { again: 'now' | number; why: string } | { capped: GameRecord; why: string };

export type PlayJobDeps = {
  store: EventStore;
  bus: RedisGameBus;
  logger: JsonLogger;
  /** The shared cost cap of a tournament (null: none); without it, games play uncapped. */
  ledgerOf?: (tournamentId: string) => Promise<CostLedger | null>;
};

/** After a superseded run, look again this soon: the other writer has probably finished or died by then. */
export const SUPERSEDED_RETRY_MS = 2_000;
/** A game whose store stayed away past its wait is tried again after this (the store then waits again). */
const DATABASE_AWAY_RETRY_MS = 5_000;
/** A live game whose runner failed (and was counted) is tried again after this, doubling per failure in a row. */
const RUN_RETRY_MS = 1_000;

const settledStatus = (g: GameRecord) => g.status === 'ended' || g.status === 'failed' || g.status === 'aborted';

/**
 * Plays one queued game in this worker, then reads the store to tell what happened: the store,
 * not this run, is the truth (a run that lost the race to another writer of the same game stops
 * cleanly and is told to look again later; one stopped for shutdown goes back to the queue at
 * once). A database that stayed away puts the game off; any other error thrown here fails the job
 * (after its runs): the coordinator records the game as failed, as an in-process run's error would.
 */
export async function playJob(deps: PlayJobDeps, data: ParsedGameJob, signal: AbortSignal): Promise<JobOutcome> {
  try {
    return await playOnce(deps, data, signal);
  } catch (e) {
    // A database away for longer than the store waits is no fault of the game's: put off (BullMQ
    // counts no attempt for that), never failed, however long the outage lasts.
    if (e instanceof StoreUnavailableError || isTransient(e)) return { again: DATABASE_AWAY_RETRY_MS, why: `the database is unavailable: ${describeChain(e, 300)}` };
    throw e;
  }
}

async function playOnce(deps: PlayJobDeps, data: ParsedGameJob, signal: AbortSignal): Promise<JobOutcome> {
  const { store, bus, logger } = deps;
  const id = data.game_id;
  const before = await store.getGame(id);
  if (settledStatus(before)) return { settled: before };
  // A job of an earlier attempt (BullMQ still running it after the game was put back in play
  // under a new job): the newer job plays the game; this one ends without touching it.
  if (data.attempt < before.attempt) return { settled: before };
  // Every LLM call of a capped tournament's game reserves on the ledger its coordinator and every
  // other worker share; its first refusal anywhere stops this game at a step boundary.
  const ledger = data.tournament_id ? ((await deps.ledgerOf?.(data.tournament_id)) ?? null) : null;
  const capped = (): JobOutcome => ({ capped: before, why: `stopped by the tournament's cost cap: ${String(ledger?.stopped.reason instanceof Error ? ledger.stopped.reason.message : ledger?.stopped.reason)}` });
  if (ledger?.stopped.aborted) return capped();
  const gameSignal = ledger ? AbortSignal.any([signal, ledger.stopped]) : signal;
  let superseded = false;
  if (data.mode === 'live') {
    const out = await playLive({ store, bus, logger, defaultPaceMs: 0 }, id, gameSignal, ledger ?? undefined);
    superseded = out?.status === 'superseded';
  } else {
    try {
      const out = await playScheduled(
        {
          store,
          clock: INPUT_CLOCKS[data.clock],
          commit: data.commit,
          signal: gameSignal,
          ...(ledger ? { seats: { spend: ledger } } : {}),
          publish: (gameId: string, events: readonly GameEvent[]) => bus.publish({ game_id: gameId, events: [...events], last_seq: events.at(-1)!.seq, committed_at: Date.now() }),
          // A whole game crosses the bus as a notice: whoever shows it reads it from the store.
          publishStored: (gameId: string, lastSeq: number) => bus.publishStored({ game_id: gameId, first_seq: 1, last_seq: lastSeq, committed_at: Date.now(), ended: true }),
        },
        id,
      );
      superseded = out.status === 'pending' && !gameSignal.aborted;
    } catch (e) {
      // A whole-game append that found the log already written by another run of this job.
      if (!(e instanceof ConcurrencyConflictError)) throw e;
      superseded = true;
    }
  }
  const after = await store.getGame(id);
  if (settledStatus(after)) return { settled: after };
  if (signal.aborted) return { again: 'now', why: 'worker shutting down' };
  if (ledger?.stopped.aborted) return { ...capped(), capped: after };
  if (superseded) return { again: SUPERSEDED_RETRY_MS, why: 'another run of this game wrote first' };
  if (after.run_failures > 0) return { again: RUN_RETRY_MS * 2 ** (after.run_failures - 1), why: `runner failed: ${after.failure_reason ?? 'unknown'}` };
  return { again: RUN_RETRY_MS, why: 'the game could not be read; trying again' };
}
