import {
  awaiting,
  initialState,
  stepInPlace,
  type GameConfigInput,
  type GameState,
} from '../game/index.js';
import type { GameEvent, Window } from '../protocol/index.js';
import { asDecision, type RecordedDecision } from './decision-record.js';
import { DivergenceError } from './runner-errors.js';

/** Called before each recorded decision is applied, with the state that asked for it. */
export type OnAsked = (
  state: GameState,
  seat: string,
  window: Window,
  recorded: RecordedDecision,
) => void;

/**
 * Drives `state` (in place, from setup) with recorded inputs only: the start at `startTs`, then each
 * decision exactly where the engine asks for it. Returns the events emitted; stops when the
 * decisions run out (the state then awaits the next one). A decision the engine did not ask for
 * next, or an input it refuses, is a DivergenceError. No agent is called unless `onAsked` does.
 *
 * @example const events = replayDecisions(initialState(config, seed), log[0].ts, await readDecisions(store, id))
 */
export function replayDecisions(
  state: GameState,
  startTs: string,
  decisions: readonly RecordedDecision[],
  onAsked?: OnAsked,
): GameEvent[] {
  const started = stepInPlace(state, { type: 'start', ts: startTs });
  if (!started.ok) throw new DivergenceError(state.game_id, state.seq, `the engine refused the start: ${started.rejection.message}`);
  return [...started.events, ...continueDecisions(state, decisions, onAsked)];
}

/**
 * replayDecisions for a state already started (a fork past its fork point): each decision exactly
 * where the engine asks for it, from wherever `state` is. Returns the events emitted.
 */
export function continueDecisions(state: GameState, decisions: readonly RecordedDecision[], onAsked?: OnAsked): GameEvent[] {
  const diverge = (reason: string) => new DivergenceError(state.game_id, state.seq, reason);
  const events: GameEvent[] = [];
  for (const d of decisions) {
    const next = awaiting(state);
    if (!next)
      throw diverge(
        `${d.player_id}'s ${d.window} at seq ${d.seq_before} is recorded after the game ended`,
      );
    const seat = next.seats[0]!;
    const attempt = (state.window?.rejections ?? 0) + 1;
    if (
      d.seq_before !== state.seq ||
      d.player_id !== seat ||
      d.window !== next.window ||
      d.attempt !== attempt
    ) {
      throw diverge(
        `the engine asks ${seat} for ${next.window} (attempt ${attempt}), but the next recorded decision is ${d.player_id}'s ${d.window} at seq ${d.seq_before} (attempt ${d.attempt})`,
      );
    }
    onAsked?.(state, seat, next.window, d);
    const res = stepInPlace(state, {
      type: 'decision',
      player_id: seat,
      window: next.window,
      decision: asDecision(d.raw),
      ts: d.ts,
    });
    if (!res.ok)
      throw diverge(`the engine refused ${seat}'s recorded ${next.window}: ${res.rejection.code}`);
    for (const e of res.events) events.push(e);
  }
  return events;
}

/**
 * Re-simulation: a stored game's log rebuilt from its seed, configuration, start time and recorded
 * decisions, without calling any agent. Equal to the stored log, byte for byte, when nothing was
 * altered (what `tiltyard verify` checks). No start time means no start was recorded: no events.
 *
 * @example JSON.stringify(resimulate(seed, config, startTs, decisions).events) === JSON.stringify(storedLog)
 */
export function resimulate(
  seed: number,
  config: GameConfigInput,
  startTs: string | undefined,
  decisions: readonly RecordedDecision[],
): { state: GameState; events: GameEvent[] } {
  const state = initialState(config, seed);
  if (startTs === undefined) {
    if (decisions.length)
      throw new DivergenceError(
        state.game_id,
        0,
        `${decisions.length} decisions are recorded for a game that never started`,
      );
    return { state, events: [] };
  }
  return { state, events: replayDecisions(state, startTs, decisions) };
}

/**
 * Replayed events against the stored log, byte for byte: anything else is a DivergenceError at
 * the first seq that differs (the decisions do not reproduce what was stored).
 */
export function assertSameLog(gameId: string, replayed: readonly GameEvent[], log: readonly GameEvent[]): void {
  for (let i = 0; i < Math.max(replayed.length, log.length); i++) {
    const [mine, stored] = [replayed[i], log[i]];
    if (!mine || !stored || JSON.stringify(mine) !== JSON.stringify(stored)) {
      throw new DivergenceError(
        gameId,
        i + 1,
        mine && stored
          ? 'the recorded decisions replay to another event than the log holds'
          : `the recorded decisions replay to ${replayed.length} events, the log holds ${log.length}`,
      );
    }
  }
}
