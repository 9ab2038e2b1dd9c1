import type { SeatAgent } from '../agents/seat/types.js';
import { awaiting, requestFor, stepInPlace, type GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { asDecision, type RecordedDecision } from '../runner/decision-record.js';
import { logicalInputClock, type InputClock } from '../runner/input-clock.js';
import { RunnerError } from '../runner/runner-errors.js';

/**
 * Plays a game on in memory from `state` (in place) to its end, asking whichever seat the engine
 * awaits, with timestamps from `clock` continuing `lastTs` (logical by default, so a run is
 * reproducible). Returns the events it emitted; `onDecision` sees each decision as the actions
 * table would record it (replayDecisions takes them back). Nothing is stored.
 *
 * @example const events = await playOn(plan.state, seats, plan.lastTs)
 */
export async function playOn(state: GameState, seats: readonly SeatAgent[], lastTs: string | null, clock: InputClock = logicalInputClock, onDecision?: (d: RecordedDecision) => void): Promise<GameEvent[]> {
  const events: GameEvent[] = [];
  let previous = lastTs;
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const player = next.seats[0]!;
    const seat = seats[Number(player.slice(4)) - 1];
    if (!seat) throw new RunnerError(`game ${state.game_id}: no agent for ${player}`);
    const decision = asDecision((await seat.decide(requestFor(state, player))).decision);
    const ts = (previous = clock(previous));
    onDecision?.({ seq_before: state.seq, player_id: player, attempt: (state.window?.rejections ?? 0) + 1, window: next.window, raw: decision, ts });
    const res = stepInPlace(state, { type: 'decision', player_id: player, window: next.window, decision, ts });
    if (!res.ok) throw new RunnerError(`game ${state.game_id}: the engine refused ${player}'s ${next.window}: ${res.rejection.code}`);
    for (const e of res.events) events.push(e);
  }
  return events;
}
