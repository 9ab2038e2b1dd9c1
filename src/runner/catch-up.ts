import { seatVersion } from '../agents/seat/agent-spec.js';
import type { SeatAgent, SeatContext } from '../agents/seat/types.js';
import { initialState, requestFor, type GameState } from '../game/index.js';
import { JsonObject, checkJsonBounds, type TurnPlanRequest } from '../protocol/index.js';
import type { EventStore, GameRecord } from '../store/index.js';
import { asDecision, sameDecision, type RecordedDecision } from './decision-record.js';
import { buildSeats } from './lineup.js';
import { forkOf, seatSeed } from '../research/fork-lineage.js';
import { replayWithFork } from '../research/fork-replay.js';
import { assertSameLog } from './replay-decisions.js';
import { DivergenceError, RunnerError } from './runner-errors.js';
import { configOf, readDecisions, readLog, seatAgentNames } from './stored-game.js';

/** A stored game brought back to life: its live state at the head and its seats, caught up. */
export type CaughtUp = {
  state: GameState;
  seats: SeatAgent[];
  /** The ts of the last recorded input (null before the start): what the clock continues from. */
  lastTs: string | null;
};

/** What seats of a persistent run are built with (traces on by default). */
export type SeatOptions = Omit<SeatContext, 'gameSeed' | 'seat'>;

/** The seat agent sitting in `player` (a player id) of a started game. */
export function seatAt(seats: readonly SeatAgent[], state: GameState, player: string): SeatAgent {
  const index = state.players.find((p) => p.player_id === player)?.seat ?? -1;
  const seat = seats[index];
  if (!seat) throw new RunnerError(`game ${state.game_id}: no agent for ${player}`);
  return seat;
}

/** Why a built-in may answer differently: the game was recorded by another version of it. */
function versionNote(game: GameRecord, player: string): string {
  const seat = game.seats.find((s) => s.player_id === player);
  const now = seat ? seatVersion(seat.agent).agent_version : undefined;
  return seat?.agent_version && now && seat.agent_version !== now ? ` (the game was recorded by ${seat.agent_version}; this build plays ${now})` : '';
}

/**
 * Rebuilds a stored game for its runner to continue: the engine state at the head of the log, and
 * fresh seats in the very state the crashed runner's seats were in. Built-in agents keep PRNG
 * streams, so each is asked again at every decision it made, in order, and its answer must equal
 * the recorded one; external agents (skills) are not deterministic, so their recorded answers are
 * trusted and their memory comes back from their last trace. The engine, fed the recorded
 * decisions, must emit exactly the stored events. Anything else is a DivergenceError. Only what the
 * head covered when this started is used, so a rival runner appending meanwhile shows up later as
 * a conflict, not as a divergence.
 */
export async function catchUp(store: EventStore, game: GameRecord, seatOptions: SeatOptions = {}): Promise<CaughtUp> {
  const fork = forkOf(game);
  const seats = buildSeats(seatAgentNames(game), seatSeed(game.seed, fork), { trace: true, ...seatOptions });
  const state = initialState(configOf(game), game.seed);
  const head = await store.lastSeq(game.game_id);
  const log = (await readLog(store, game.game_id)).filter((e) => e.seq <= head);
  if (log.length === 0) return { state, seats, lastTs: null };
  const decisions = (await readDecisions(store, game.game_id)).filter((d) => d.seq_before < head);
  const asked: Array<{ seat: SeatAgent; request: TurnPlanRequest; recorded: RecordedDecision; seq: number; window: string; player: string }> = [];
  const events = replayWithFork(
    state,
    log[0]!.ts,
    decisions,
    fork,
    (s, player, window, recorded) => {
      const seat = seatAt(seats, s, player);
      // Requests are views of a state that moves on: keep a copy for asking after the replay.
      if (seat.replayable) asked.push({ seat, request: structuredClone(requestFor(s, player)), recorded, seq: s.seq, window, player });
    },
    log,
  );
  assertSameLog(game.game_id, events, log);
  for (const a of asked) {
    const fresh = asDecision((await a.seat.decide(a.request)).decision);
    if (fork && a.seq < fork.seq) continue;
    if (!sameDecision(fresh, asDecision(a.recorded.raw)))
      throw new DivergenceError(game.game_id, a.seq, `${a.player}'s agent (${a.seat.spec}) answers its ${a.window} differently than recorded${versionNote(game, a.player)}`);
  }
  for (const [i, seat] of seats.entries()) {
    if (seat.replayable) continue;
    const traces = await store.readTraces(game.game_id, `plr_${i + 1}`);
    const memory = JsonObject.safeParse((traces[traces.length - 1]?.entries as { memory?: unknown } | undefined)?.memory);
    // Traces stored before agent output was bounded may hold a memory too deep to hand back.
    if (memory.success && checkJsonBounds(memory.data) === null) seat.restoreMemory(memory.data);
  }
  return { state, seats, lastTs: decisions[decisions.length - 1]?.ts ?? log[0]!.ts };
}
