// The k-th first-attempt action window of a seeded full-windows game of built-ins: the positions the research tests judge and score.
import { createAgent } from '../../src/agents/builtin/index.js';
import { answerInPlace, awaiting, initialState, requestFor, stepInPlace, type GameState } from '../../src/game/index.js';
import type { TurnPlanRequest } from '../../src/protocol/index.js';
import { LOGICAL_EPOCH } from '../../src/runner/input-clock.js';
import { seatConfigs } from '../../src/runner/lineup.js';

export const AGENTS = ['balanced', 'aggressor', 'random', 'trickster'] as const;

/** The live state and the seat's request at the k-th first-attempt action window of a seeded full-windows game. */
export function actionAt(seed: number, k: number): { state: GameState; request: TurnPlanRequest } | null {
  const state = initialState({ game_id: `game_o${seed}`, seats: seatConfigs(AGENTS) }, seed);
  stepInPlace(state, { type: 'start', ts: LOGICAL_EPOCH });
  const agents = AGENTS.map((a, i) => createAgent(a, seed, i));
  let seen = 0;
  for (let next = awaiting(state); next; next = awaiting(state)) {
    const player = next.seats[0]!;
    const request = requestFor(state, player);
    if (next.window === 'action' && !request.constraints.reprompt && seen++ === k) return { state, request: structuredClone(request) };
    answerInPlace(state, player, next.window, agents[Number(player.slice(4)) - 1]!.decide(request));
  }
  return null;
}

