import { randomBytes } from 'node:crypto';
import type { SeatAgent, SeatDecision } from '../agents/seat/types.js';
import {
  awaiting,
  requestFor,
  stepInPlace,
  type GameState,
  type RulesInput,
} from '../game/index.js';
import type { GameEvent, Placement } from '../protocol/index.js';
import {
  ConcurrencyConflictError,
  describeChain,
  isTransient,
  StoreUnavailableError,
  type ActionRecord,
  type EventStore,
  type GameRecord,
  type SeatRecord,
} from '../store/index.js';
import { AgentStrikesError, BoundStrikes } from './agent-strikes.js';
import { catchUp, seatAt, type SeatOptions } from './catch-up.js';
import { actionRecord, asDecision, noteRejection, type Asked } from './decision-record.js';
import { wallClock, type InputClock } from './input-clock.js';
import { seatConfigs } from './lineup.js';
import { seatVersion } from '../agents/seat/agent-spec.js';
import { judgeDecision } from './judge-decision.js';
import { checkProviderDown, ProviderDownError } from './provider-down.js';
import { degradedBy, degradedOf, type Degraded } from './degraded.js';
import { DivergenceError, GameFailedError, RunnerError } from './runner-errors.js';
import { abortableSleep } from '../lib/abortable-sleep.js';

/** How a persistent run stopped. */
export type RunOutcome = {
  gameId: string;
  /**
   * `ended`: the game is over and stored; `superseded`: another runner moved the log, so this one
   * stopped; `stopped`: the caller's signal asked it to stop, and it did after its last committed
   * step (resume it later).
   */
  status: 'ended' | 'superseded' | 'stopped';
  /** The head of the log when this runner took over, and the last seq it stored itself. */
  fromSeq: number;
  lastSeq: number;
  /** Events this runner appended. */
  appended: number;
  placements: Placement[] | null;
  /** Set once a seat ran out of budget (stored as options.degraded; see degraded.ts). */
  degraded: Degraded | null;
};

export type RunnerOptions = {
  /** Input timestamps (default: the wall clock). */
  clock?: InputClock;
  /**
   * Called after every committed step with the new head, the live state there and the step's
   * events (all read-only: the state moves on in place and may share objects with them).
   */
  onCommit?: (seq: number, state: Readonly<GameState>, events: readonly GameEvent[]) => void;
  /** Every answer a seat gave (with its trace), before the engine takes it. */
  onDecision?: (player: string, answer: SeatDecision) => void;
  /** How seats are built: work dirs, tracing (on by default: traces go to agent_traces). */
  seats?: SeatOptions;
  /**
   * Checked between steps: once aborted, the runner returns `stopped` without starting another
   * step. A step already being decided still commits, so nothing is half-written or lost.
   */
  signal?: AbortSignal;
  /** Milliseconds to wait between steps, so a live game moves at a watchable pace (default 0). */
  paceMs?: number;
  /** How to wait those milliseconds (default: a timer an abort cuts short); for tests. */
  pause?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

/** A game to start: its seed, its agents by seat (built-in names or skill:<folder>) and rules overrides. */
export type NewGame = {
  seed: number;
  agents: readonly string[];
  rules?: RulesInput;
  gameId?: string;
  /** What a server runs the game with besides its config (see GameRecord.options). */
  options?: Record<string, unknown>;
};

/**
 * Runner attempts in a row that may fail (throw before committing a step) before the game is
 * marked `failed`: a game that cannot be played (its skill folder is gone, its stored config no
 * longer parses) must not be retried forever, nor take every restart down with it.
 */
export const MAX_RUN_FAILURES = 3;

/** A fresh game id: games are not named after their seed, so one seed can be played many times. */
export const newGameId = (): string => `game_${randomBytes(6).toString('hex')}`;

/**
 * Registers a game for a persistent runner: its seed, configuration (seat names and baselines from
 * the line-up) and which agent sits where, so that any process can resume it. Idempotent for the
 * same id, seed and line-up. Returns the stored game as createGame read it back (a caller about to
 * play it needs no second read).
 */
export async function registerPersistentGame(store: EventStore, game: NewGame): Promise<GameRecord> {
  const gameId = game.gameId ?? newGameId();
  const seatConfig = seatConfigs(game.agents);
  const seats: SeatRecord[] = game.agents.map((agent, i) => ({
    seat: i,
    player_id: `plr_${i + 1}`,
    agent,
    display_name: seatConfig[i]!.display_name,
    ...seatVersion(agent),
  }));
  const config = { game_id: gameId, seats: seatConfig, rules: game.rules ?? {} };
  return store.createGame({ seed: game.seed, config, seats, ...(game.options ? { options: game.options } : {}) });
}

/** registerPersistentGame, answering the game id only. */
export async function createPersistentGame(store: EventStore, game: NewGame): Promise<string> {
  return (await registerPersistentGame(store, game)).game_id;
}

/**
 * Registers a game in the store and plays it to the end with its agents, committing every engine
 * step (its events and the decision that caused it) in one append. The same game id, seed and
 * line-up again resumes that game instead.
 *
 * @example const out = await runPersistent(store, { seed: 5, agents: ['random', 'balanced'] })
 */
export async function runPersistent(
  store: EventStore,
  game: NewGame,
  options: RunnerOptions = {},
): Promise<RunOutcome> {
  return resumePersistent(store, await createPersistentGame(store, game), options);
}

/**
 * Continues a stored game from the last committed step: rebuilds its state and agents (see
 * catchUp; a DivergenceError when the store and the agents disagree), then plays on live. A
 * finished game returns at once. Crash-safe by construction: a step is in the store whole or not
 * at all, and whatever a killed runner had not committed is simply played again.
 */
export async function resumePersistent(
  store: EventStore,
  gameId: string,
  options: RunnerOptions = {},
): Promise<RunOutcome> {
  const game = await store.getGame(gameId);
  if (game.status === 'ended') {
    return {
      gameId,
      status: 'ended',
      fromSeq: game.last_seq,
      lastSeq: game.last_seq,
      appended: 0,
      placements: game.placements,
      degraded: degradedOf(game.options),
    };
  }
  if (game.status === 'aborted')
    throw new RunnerError(`game ${gameId} was aborted; it cannot be resumed`);
  if (game.status === 'failed') throw new GameFailedError(gameId, game.failure_reason);
  // The first commit of this attempt shows the failures before it were not in a row.
  let clear = game.run_failures > 0;
  const clearing: Promise<void>[] = [];
  const onCommit: RunnerOptions['onCommit'] = (seq, state, events) => {
    if (clear) {
      clear = false;
      clearing.push(store.clearRunFailures(gameId).catch(() => undefined));
    }
    options.onCommit?.(seq, state, events);
  };
  try {
    const { state, seats, lastTs } = await catchUp(store, game, options.seats);
    const strikes = await BoundStrikes.of(store, gameId);
    try {
      return await drive(store, state, seats, lastTs, strikes, degradedOf(game.options), { ...options, onCommit });
    } finally {
      await Promise.all(seats.map((s) => s.close().catch(() => undefined)));
      await Promise.all(clearing);
    }
  } catch (e) {
    // A divergence is not a failure to count: callers abort such a game, since it can only diverge again.
    // An agent out of strikes fails the game at once: its next attempt would only strike again.
    // So does a seat whose provider is down: another attempt would only meet the same dead endpoint.
    if (e instanceof AgentStrikesError || e instanceof ProviderDownError) await store.recordRunFailure(gameId, e.message, 1).catch(() => undefined);
    else if (!(e instanceof DivergenceError)) await recordFailure(store, gameId, e);
    throw e;
  }
}

/**
 * The fault boundary's record of one failed attempt: counted, with its reason, in the store
 * (where `games`, REST and the lobby read it), with its whole cause chain. When the store itself
 * is what failed, there is nothing to write to: the attempt simply is not counted.
 */
async function recordFailure(store: EventStore, gameId: string, e: unknown): Promise<void> {
  // A database that stayed away past the store's wait is no fault of the game's: not counted (and
  // there would be nothing to write it to).
  if (e instanceof StoreUnavailableError || isTransient(e)) return;
  await store.recordRunFailure(gameId, describeChain(e), MAX_RUN_FAILURES).catch(() => undefined);
}

/** Plays a caught-up game on, one committed step at a time, until it ends or a rival writes first. */
async function drive(
  store: EventStore,
  state: GameState,
  seats: readonly SeatAgent[],
  lastTs: string | null,
  strikes: BoundStrikes,
  degradedBefore: Degraded | null,
  options: RunnerOptions,
): Promise<RunOutcome> {
  const clock = options.clock ?? wallClock;
  const gameId = state.game_id;
  const fromSeq = state.seq;
  let appended = 0;
  let committed = fromSeq;
  let previous = lastTs;
  let degraded = degradedBefore;
  // A superseded runner's state is one step ahead of what it stored: report the stored part only.
  const outcome = (status: RunOutcome['status']): RunOutcome => ({
    gameId,
    status,
    fromSeq,
    lastSeq: committed,
    appended,
    placements: status === 'ended' ? state.placements : null,
    degraded,
  });

  /** One step into the store; false when another runner got there first (this one must stop). */
  const commit = async (
    expectedSeq: number,
    events: GameEvent[],
    actions: ActionRecord[],
  ): Promise<boolean> => {
    try {
      const res = await store.append(gameId, expectedSeq, events, { state, actions });
      // Nothing appended: the very same step is already stored, so another runner is playing too.
      if (res.appended === 0) return false;
      appended += res.appended;
      committed = res.last_seq;
      options.onCommit?.(res.last_seq, state, events);
      return true;
    } catch (e) {
      if (e instanceof ConcurrencyConflictError) return false;
      throw e;
    }
  };

  const signal = options.signal;
  const pause = options.pause ?? abortableSleep;
  /** Between steps: the pace, then whether to stop here (the log ends on a whole step). */
  const halted = async (): Promise<boolean> => {
    if (options.paceMs && !signal?.aborted) await pause(options.paceMs, signal);
    return signal?.aborted === true;
  };

  if (signal?.aborted) return outcome('stopped');
  if (state.status === 'setup') {
    const ts = (previous = clock(previous));
    const started = stepInPlace(state, { type: 'start', ts });
    if (!started.ok)
      throw new RunnerError(
        `game ${gameId}: the engine refused the start: ${started.rejection.message}`,
      );
    if (!(await commit(0, started.events, []))) return outcome('superseded');
  }
  for (;;) {
    const next = awaiting(state);
    if (!next) break;
    if (await halted()) return outcome('stopped');
    const seat = next.seats[0]!;
    const asked: Asked = {
      seq_before: state.seq,
      turn: state.turn,
      phase: state.phase,
      window: next.window,
      player_id: seat,
      attempt: (state.window?.rejections ?? 0) + 1,
    };
    const agent = seatAt(seats, state, seat);
    // A seat answered over HTTP asks the engine first, on a copy, so an illegal answer is refused in words.
    const answer = await agent.decide(requestFor(state, seat), (d) => judgeDecision(state, seat, next.window, d));
    if (answer.halt) {
      // The cost cap refused a call: what was spent is recorded, the step is not (asked again on resume).
      if (answer.calls?.length) await store.recordProviderCalls(gameId, answer.calls);
      return outcome('stopped');
    }
    options.onDecision?.(seat, answer);
    const decision = asDecision(answer.decision);
    const ts = (previous = clock(previous));
    const res = stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision,
      ts,
    });
    // The runner asks exactly whom the engine awaits, so a refusal here is a bug, not a game event.
    if (!res.ok)
      throw new RunnerError(
        `game ${gameId}: the engine refused ${seat}'s ${next.window}: ${res.rejection.code} ${res.rejection.message}`,
      );
    if (
      !(await commit(asked.seq_before, res.events, [actionRecord(asked, decision, ts, res.events)]))
    )
      return outcome('superseded');
    // After the step's commit: a trace lost to a crash here costs a debugging record, never the game.
    // A built-in's trace is not stored: seed + decisions reproduce it (issue 29), and its summary
    // comes from the actions (seat-summary.ts); onDecision still sees it live.
    noteRejection(answer, res.events, seat);
    const t = agent.replayable ? null : answer.trace;
    if (t) await store.recordTraces(gameId, [{ player_id: t.player_id, turn: t.turn, window: t.window, request_id: t.request_id, entries: t }]);
    if (answer.calls?.length) await store.recordProviderCalls(gameId, answer.calls);
    // The first forced decision for want of budget: the game goes on (it is stored and replays),
    // but it measures no model, so it is marked for the ratings and the CLI to say so.
    const cause = degraded ? null : degradedBy(answer);
    if (cause) {
      degraded = cause;
      await store.markDegraded(gameId, cause);
    }
    // Output over the protocol's bounds: the seat fell back this time; the third time fails the game.
    strikes.note(gameId, seat, answer);
    checkProviderDown(gameId, seat, answer);
  }
  if (state.status !== 'done')
    throw new RunnerError(`game ${gameId}: the engine awaits no one, yet the game is not over`);
  return outcome('ended');
}
