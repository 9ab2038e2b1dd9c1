import { isDeterministicSpec } from '../agents/seat/agent-spec.js';
import { createSeat } from '../agents/seat/create-seat.js';
import type { SeatAgent } from '../agents/seat/types.js';
import { initialState, requestFor } from '../game/index.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import type { EventStore, GameRecord, TraceRecord } from '../store/index.js';
import { forkOf, seatSeed } from '../research/fork-lineage.js';
import { replayWithFork } from '../research/fork-replay.js';
import { resolveSpecs } from './lineup.js';
import { configOf, readDecisions, readLog } from './stored-game.js';

export type ReadTrace = TraceRecord & { created_at: string };

/** The built-in seats (or skills wrapping one) none of whose traces is stored: theirs are made, not read. */
export const untracedBuiltins = <S extends { player_id: string; agent: string }>(seats: readonly S[], stored: readonly TraceRecord[]): S[] =>
  seats.filter((s) => isDeterministicSpec(s.agent) && !stored.some((t) => t.player_id === s.player_id));

/**
 * A game's decision traces as the runner made them: the stored ones (skill and LLM seats), and
 * those of built-in seats, which are not stored (issue 29) but made again here — the game is
 * replayed from its seed and recorded decisions, and each built-in seat is asked again, in order,
 * what it was asked then (as a resume's catch-up does). Such a trace differs from the one the run
 * had only in its timings (latency_ms and stage ts: this reading's); its created_at is the decision's ts. Oldest
 * first, in decision order. A built-in seat that has stored traces (games stored before this) is
 * read as stored.
 *
 * @example const traces = await gameTraces(store, await store.getGame('game_ab12'), 'plr_2')
 */
export async function gameTraces(store: EventStore, game: GameRecord, playerId?: string): Promise<ReadTrace[]> {
  const stored = await store.readTraces(game.game_id, playerId);
  const remake = untracedBuiltins(game.seats, stored).filter((s) => playerId === undefined || s.player_id === playerId);
  if (remake.length === 0) return stored;
  const fork = forkOf(game);
  const agents = new Map<string, SeatAgent>(remake.map((s) => [s.player_id, createSeat(resolveSpecs([s.agent])[0]!, { gameSeed: seatSeed(game.seed, fork), seat: s.seat, trace: true })]));
  // A fork's prefix may record its ancestors' reseeds: the replay takes them from there.
  const log = fork ? await readLog(store, game.game_id) : await store.read(game.game_id, 0, 1);
  const first = log[0];
  if (!first) return stored;
  // Every decision's request id in order (to place the stored traces), and the built-ins' requests.
  const order = new Map<string, number>();
  const asks: Array<{ agent: SeatAgent; request: TurnPlanRequest; ts: string }> = [];
  // Read outside the try: decisions that fail their integrity check are an error, not "no replay".
  const decisions = await readDecisions(store, game.game_id);
  try {
    replayWithFork(initialState(configOf(game), game.seed), first.ts, decisions, fork, (state, player, _window, recorded) => {
      const request = requestFor(state, player);
      order.set(request.request_id, order.size);
      const agent = agents.get(player);
      // Requests are views of a state that moves on: a copy for asking once the replay is done.
      if (agent) asks.push({ agent, request: structuredClone(request), ts: recorded.ts });
    }, log);
  } catch {
    // A log its decisions do not replay (verify says so): what is stored is all there is.
    return stored;
  }
  const made: ReadTrace[] = [];
  for (const a of asks) {
    const t = (await a.agent.decide(a.request)).trace;
    if (t) made.push({ player_id: t.player_id, turn: t.turn, window: t.window, request_id: t.request_id, entries: t, created_at: a.ts });
  }
  const at = (t: ReadTrace) => order.get(t.request_id) ?? Number.MAX_SAFE_INTEGER;
  return [...stored, ...made].sort((x, y) => at(x) - at(y));
}
