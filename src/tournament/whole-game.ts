import type { SeatAgent } from '../agents/seat/types.js';
import { awaiting, initialState, requestFor, stepInPlace, type GameConfigInput, type GameState } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import { seatAt } from '../runner/catch-up.js';
import { actionRecord, asDecision, type Asked } from '../runner/decision-record.js';
import type { InputClock } from '../runner/input-clock.js';
import { RunnerError } from '../runner/runner-errors.js';
import type { ActionRecord, WholeGame } from '../store/index.js';
import { crossesBoundary } from '../store/snapshots.js';

/**
 * Plays a stored-to-be game in memory exactly as the persistent runner would step by step (the
 * same requests, the same canonical decisions, the same action records and input clock), keeping
 * what one whole-game append needs: the events, the actions, and a copy of the state after each
 * step that crosses a multiple of `snapshotEvery` (where per-step appends would snapshot).
 */
export async function playWholeGame(config: GameConfigInput, seed: number, seats: readonly SeatAgent[], clock: InputClock, snapshotEvery: number): Promise<WholeGame & { state: GameState }> {
  const state = initialState(config, seed);
  const events: GameEvent[] = [];
  const actions: ActionRecord[] = [];
  const snapshots: GameState[] = [];
  const took = (stepEvents: readonly GameEvent[]) => {
    for (const e of stepEvents) events.push(e);
    if (crossesBoundary(snapshotEvery, state.seq - stepEvents.length, state.seq)) snapshots.push(structuredClone(state));
  };
  let previous = clock(null);
  const started = stepInPlace(state, { type: 'start', ts: previous });
  if (!started.ok) throw new RunnerError(`game ${state.game_id}: the engine refused the start: ${started.rejection.message}`);
  took(started.events);
  for (;;) {
    const next = awaiting(state);
    if (!next) break;
    const seat = next.seats[0]!;
    const asked: Asked = { seq_before: state.seq, turn: state.turn, phase: state.phase, window: next.window, player_id: seat, attempt: (state.window?.rejections ?? 0) + 1 };
    const answer = await seatAt(seats, state, seat).decide(requestFor(state, seat));
    const decision = asDecision(answer.decision);
    const ts = (previous = clock(previous));
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision, ts });
    if (!res.ok) throw new RunnerError(`game ${state.game_id}: the engine refused ${seat}'s ${next.window}: ${res.rejection.code} ${res.rejection.message}`);
    actions.push(actionRecord(asked, decision, ts, res.events));
    took(res.events);
  }
  if (state.status !== 'done') throw new RunnerError(`game ${state.game_id}: the engine awaits no one, yet the game is not over`);
  return { state, events, actions, snapshots };
}
