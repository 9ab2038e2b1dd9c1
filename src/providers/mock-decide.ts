import type { Agent } from '../agents/agent.js';
import { aggressorAgent } from '../agents/builtin/aggressor.js';
import { balancedAgent } from '../agents/builtin/balanced.js';
import { manipulatorAgent } from '../agents/builtin/manipulator.js';
import { tricksterAgent } from '../agents/builtin/trickster.js';
import { turtleAgent } from '../agents/builtin/turtle.js';
import type { TurnPlanRequest } from '../protocol/index.js';
import { digest } from './mock-draw.js';
import { MOCK_PERSONALITIES, type MockPersonality } from './mock-options.js';
import { reasoningFor } from './mock-reasoning.js';

/** The LLM answer schema caps reasoning at 300 characters; long seat names must not break that. */
const REASONING_MAX = 280;

const AGENTS: Readonly<Record<MockPersonality, (seed: string) => Agent>> = {
  balanced: balancedAgent,
  aggressor: aggressorAgent,
  turtle: turtleAgent,
  manipulator: manipulatorAgent,
  trickster: tricksterAgent,
};

/**
 * The seat's character for a whole game: from the call seed and the seat, so a seat keeps its
 * personality from window to window, and seats without a seed still differ from each other.
 *
 * @example personalityFor('1:plr_2', 'plr_2') // 'turtle' (say), every time
 */
export function personalityFor(seed: string, playerId: string): MockPersonality {
  const i =
    parseInt(digest('personality', seed, playerId).slice(0, 8), 16) % MOCK_PERSONALITIES.length;
  return MOCK_PERSONALITIES[i]!;
}

/** A reflect answer with nothing to say still leaves a note: what the seat aimed at and how it stands. */
function reflectNote(r: TurnPlanRequest): string {
  const me = r.public_world_view.players.find((p) => p.player_id === r.player_id);
  const aim = r.player_private_view.secret_plan?.emotional_intent;
  const at = aim
    ? r.public_world_view.players.find((p) => p.player_id === aim.target_player_id)?.display_name
    : null;
  const head =
    aim && at ? `turn ${r.turn}: aimed ${aim.emotion} at ${at}` : `turn ${r.turn}: kept to myself`;
  return me ? `${head}; resolve ${me.resolve}, lives ${me.lives}` : head;
}

/**
 * The mock's answer to a request: what a fresh built-in agent of the seat's personality decides,
 * seeded from `key` (the call digest), plus a one-sentence `reasoning` and, after a round, a small
 * `memory` patch. A fresh agent per call keeps the answer a function of the request alone (the
 * built-ins otherwise carry memory between calls); they are legal by construction.
 *
 * @example mockAnswer(request, digest('seed', request.request_id), 'aggressor') // { selected_action: …, attack_plan: …, reasoning: '…' }
 */
export function mockAnswer(
  r: TurnPlanRequest,
  key: string,
  personality: MockPersonality,
): Record<string, unknown> {
  let decision = AGENTS[personality](`mock:${key}`).decide(r) as Record<string, unknown>;
  if (r.window !== 'reflect')
    return {
      ...decision,
      reasoning: reasoningFor(r, decision, key, personality).slice(0, REASONING_MAX),
    };
  const updates = Array.isArray(decision['memory_updates'])
    ? (decision['memory_updates'] as string[])
    : [];
  // memory_updates entries are capped at 500 characters by ReflectDecision.
  decision = {
    ...decision,
    memory_updates: updates.length ? updates : [reflectNote(r).slice(0, 500)],
  };
  const reasoning = reasoningFor(r, decision, key, personality).slice(0, REASONING_MAX);
  return { ...decision, reasoning, memory: { mock: { personality, last_reflect_turn: r.turn } } };
}
