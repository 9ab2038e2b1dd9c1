import { isDeterministicSpec } from '../agents/seat/agent-spec.js';
import type { GameEvent, Placement } from '../protocol/index.js';
import type { SeatOptions } from '../runner/catch-up.js';
import { INPUT_CLOCKS, type InputClock, type InputClockName } from '../runner/input-clock.js';
import { buildSeats } from '../runner/lineup.js';
import { resumePersistent } from '../runner/persistent-runner.js';
import { configOf, seatAgentNames } from '../runner/stored-game.js';
import type { EventStore, GameRecord } from '../store/index.js';
import type { PlayWorkers } from './play-workers.js';
import { playWholeGame } from './whole-game.js';

/**
 * How a tournament's games are committed. `auto`: one transaction per game when every seat is a
 * deterministic built-in (a crash re-plays that game from its seed), per step otherwise (LLM and
 * subprocess seats: what they answered cannot be asked again). `step`: always per step.
 */
export type CommitPolicy = 'auto' | 'step';

export type GamePorts = {
  store: EventStore;
  clock: InputClock;
  commit: CommitPolicy;
  signal?: AbortSignal;
  /** Every stored batch of a game's events, for a game bus (live spectators). */
  publish?: (gameId: string, events: readonly GameEvent[]) => void;
  /**
   * Instead of `publish` for a game stored whole: only that events 1…lastSeq are stored (a bus
   * between processes, whose listeners read the events from the store if they show them).
   */
  publishStored?: (gameId: string, lastSeq: number) => void;
  seats?: SeatOptions;
  /**
   * Threads to play whole games on (see PlayWorkers). Used when nothing in-process is needed: a
   * named clock, no seat options and no publish (the bus wants the events on this thread).
   */
  workers?: PlayWorkers;
};

/** The name of a clock in INPUT_CLOCKS, or null for an injected one (which cannot cross to a worker). */
const clockName = (clock: InputClock): InputClockName | null =>
  (Object.keys(INPUT_CLOCKS) as InputClockName[]).find((k) => INPUT_CLOCKS[k] === clock) ?? null;

/** `ended` with its placements, or `pending` (stopped by the signal, or another runner writes it). */
export type GameOutcome = { status: 'ended'; placements: Placement[]; degraded?: boolean } | { status: 'pending' };

/** Whether every spec is a built-in (or a skill wrapping one): answers derived from the seed alone. */
export function deterministicSeats(specs: readonly string[]): boolean {
  return specs.every(isDeterministicSpec);
}

/**
 * Plays (or finishes) one created game of a tournament and stores it. A game with no events whose
 * seats are all deterministic is played in memory (on a worker thread when the ports have them)
 * and stored whole; anything else goes through the persistent runner, which also resumes a game
 * a killed runner left half-stored. `known`: the game's record as just read (saves reading it again).
 */
export async function playScheduled(ports: GamePorts, gameId: string, known?: GameRecord): Promise<GameOutcome> {
  const { store } = ports;
  // The runner passes the record createGame just read back: no second read of the same row.
  const game = known?.game_id === gameId ? known : await store.getGame(gameId);
  if (game.status === 'ended') return { status: 'ended', placements: game.placements ?? [] };
  const agents = seatAgentNames(game);
  if (ports.commit === 'auto' && game.last_seq === 0 && deterministicSeats(agents)) {
    const clock = clockName(ports.clock);
    if (ports.workers && clock && !ports.seats && !ports.publish) {
      const done = await ports.workers.run({ game_id: gameId, config: configOf(game), seed: game.seed, agents, clock, snapshotEvery: store.snapshotEvery, cold: store.compactsWholeGames });
      await store.appendPrepared(gameId, done.prepared);
      return { status: 'ended', placements: done.placements };
    }
    const seats = buildSeats(agents, game.seed, ports.seats);
    let whole;
    try {
      whole = await playWholeGame(configOf(game), game.seed, seats, ports.clock, store.snapshotEvery);
    } finally {
      await Promise.all(seats.map((s) => s.close()));
    }
    await store.appendGame(gameId, whole, { cold: store.compactsWholeGames });
    if (ports.publishStored) ports.publishStored(gameId, whole.events.length);
    else ports.publish?.(gameId, whole.events);
    return { status: 'ended', placements: whole.state.placements ?? [] };
  }
  const publish = ports.publish;
  const out = await resumePersistent(store, gameId, {
    clock: ports.clock,
    ...(ports.signal ? { signal: ports.signal } : {}),
    ...(ports.seats ? { seats: ports.seats } : {}),
    ...(publish ? { onCommit: (_seq: number, _state: unknown, events: readonly GameEvent[]) => publish(gameId, events) } : {}),
  });
  return out.status === 'ended' ? { status: 'ended', placements: out.placements ?? [], degraded: out.degraded !== null } : { status: 'pending' };
}
