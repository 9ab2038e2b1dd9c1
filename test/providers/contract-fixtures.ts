/** The request both provider contract suites send: a system prompt, a user turn and a strict answer schema. */
import type { AnswerSchema, ProviderRequest } from '../../src/providers/types.js';

export const answer: AnswerSchema = {
  name: 'turn_plan',
  description: 'Your move this turn',
  schema: {
    type: 'object',
    properties: {
      move: { type: 'string', enum: ['attack', 'defend'] },
      target: { type: ['string', 'null'] },
    },
    required: ['move', 'target'],
    additionalProperties: false,
  },
};

export const ANSWER_TEXT = '{"move":"attack","target":"plr_2"}';
export const ANSWER_JSON = { move: 'attack', target: 'plr_2' };

export function request(model: string, over: Partial<ProviderRequest> = {}): ProviderRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'You are plr_1.' },
      { role: 'system', content: 'Answer with the turn_plan tool.' },
      { role: 'user', content: 'Your turn. Hand: Feint, Guard.' },
      { role: 'assistant', content: '{"move":"defend","target":null}' },
      { role: 'user', content: 'Again, for turn 2.' },
    ],
    answer,
    maxOutputTokens: 300,
    temperature: 0.2,
    deadlineMs: 2_000,
    meta: { game_id: 'g1', player_id: 'plr_1', turn: 2 },
    ...over,
  };
}

/**
 * Waits until `check` holds (polled every 10 ms), failing after a minute: a hang detector, never a
 * speed check (how soon it holds is the machine's business).
 */
export async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = performance.now() + 60_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`waited a minute for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
