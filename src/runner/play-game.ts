import { awaiting, initialState, requestFor, stepInPlace, type GameConfigInput } from '../game/index.js';
import type { GameEvent } from '../protocol/index.js';
import type { SeatAgent, SeatDecision } from '../agents/seat/types.js';
import { logicalClock } from './clock.js';
import { noteRejection } from './decision-record.js';
import { judgeDecision } from './judge-decision.js';
import { checkProviderDown } from './provider-down.js';
import type { Decision, GameRun } from './run-game.js';

export type PlayOptions = {
  /** Input timestamps (default: the logical clock, so runs are byte-identical). */
  clock?: () => string;
  /** Every answer as the seat gave it (after the engine's step), with its trace when tracing is on. */
  onDecision?: (seat: number, answer: SeatDecision) => void;
  /** Each step's events as it is taken (a person at the terminal follows the story as it goes). */
  onEvents?: (events: readonly GameEvent[]) => void;
};

/**
 * Plays one game in memory through the tool-protocol seats (built-in, command or plan agents):
 * asks each awaited seat for its window's answer until the game ends. An agent that fails gives
 * no answer and the engine applies the rules' fallback; the engine refusing an input here would
 * be a runner bug, so that throws.
 */
export async function playGame(config: GameConfigInput, seed: number, seats: readonly SeatAgent[], options: PlayOptions = {}): Promise<GameRun> {
  const clock = options.clock ?? logicalClock();
  const state = initialState(config, seed);
  const events: GameEvent[] = [];
  const decisions: Decision[] = [];
  const started = stepInPlace(state, { type: 'start', ts: clock() });
  if (!started.ok) throw new Error(`start refused: ${started.rejection.message}`);
  events.push(...started.events);
  options.onEvents?.(started.events);
  for (;;) {
    const next = awaiting(state);
    if (!next) break;
    const player = next.seats[0]!;
    const index = Number(player.slice(4)) - 1;
    const seat = seats[index];
    if (!seat) throw new Error(`no agent for ${player}`);
    // The judge lets a person's seat refuse an illegal choice in words and ask again (built-ins ignore it).
    const answer = await seat.decide(requestFor(state, player), (d) => judgeDecision(state, player, next.window, d));
    checkProviderDown(state.game_id, player, answer);
    const decision = answer.decision;
    const ts = clock();
    decisions.push({ seq: state.seq, player_id: player, window: next.window, decision, ts });
    const res = stepInPlace(state, { type: 'decision', player_id: player, window: next.window, decision, ts });
    if (!res.ok) throw new Error(`engine refused ${player}'s ${next.window}: ${res.rejection.code} ${res.rejection.message}`);
    for (const e of res.events) events.push(e);
    options.onEvents?.(res.events);
    // After the step, so the answer's trace says whether the engine took it (noteRejection).
    noteRejection(answer, res.events, player);
    options.onDecision?.(index, answer);
  }
  return { state, events, decisions };
}
