import type { GameEvent } from '../protocol/index.js';
import type { Agent } from '../agents/agent.js';
import { awaiting, initialState, requestFor, stepInPlace, type GameConfigInput, type GameState } from '../game/index.js';
import { logicalClock } from './clock.js';

export type Decision = { seq: number; player_id: string; window: string; decision: unknown; ts: string };

export type GameRun = { state: GameState; events: GameEvent[]; decisions: Decision[] };

/**
 * Plays one game in memory: asks each awaited seat's agent for its window's answer until the game
 * ends. Agents are indexed by seat; the engine's refusals here would be runner bugs, so they throw.
 */
export function runGame(config: GameConfigInput, seed: number, agents: readonly Agent[], clock = logicalClock()): GameRun {
  const state = initialState(config, seed);
  const events: GameEvent[] = [];
  const decisions: Decision[] = [];
  const started = stepInPlace(state, { type: 'start', ts: clock() });
  if (!started.ok) throw new Error(`start refused: ${started.rejection.message}`);
  events.push(...started.events);
  for (;;) {
    const next = awaiting(state);
    if (!next) break;
    const seat = next.seats[0]!;
    const agent = agents[Number(seat.slice(4)) - 1];
    if (!agent) throw new Error(`no agent for ${seat}`);
    const decision = agent.decide(requestFor(state, seat));
    const ts = clock();
    decisions.push({ seq: state.seq, player_id: seat, window: next.window, decision, ts });
    const res = stepInPlace(state, { type: 'decision', player_id: seat, window: next.window, decision, ts });
    if (!res.ok) throw new Error(`engine refused ${seat}'s ${next.window}: ${res.rejection.code} ${res.rejection.message}`);
    for (const e of res.events) events.push(e);
  }
  return { state, events, decisions };
}
