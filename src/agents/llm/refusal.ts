import type { TurnPlanRequest } from '../../protocol/index.js';
import type { ProviderResult } from '../../providers/types.js';

/**
 * A reply that declines in words instead of the wire's refusal field: "I'm sorry, but I can't help
 * with that." Only a short reply that opens so counts: a JSON answer whose reasoning says "I can't
 * trust plr_2" is not a refusal.
 */
const PLAIN_REFUSAL = /^\s*(i['’]m sorry|i am sorry|sorry,|i can(?:no|['’])t|i cannot|i won['’]t|i will not|i['’]m (?:not able|unable)|i am (?:not able|unable)|as an ai)/i;

/** Whether a result is the model declining: the wire's refusal (OpenAI message.refusal, Anthropic stop_reason "refusal", content_filter) or a short plain-text refusal. */
export function isRefusal(r: ProviderResult): boolean {
  if (r.status === 'refused') return true;
  return r.status === 'malformed' && r.text.length < 600 && PLAIN_REFUSAL.test(r.text) && !r.text.includes('{');
}

/**
 * The one repair turn a refusal gets: it restates what the game is — a card game between programs,
 * where bluffing, taunts and "manipulation" are moves against other players' game pieces — and
 * asks for the window's answer again.
 */
export function refusalRepair(request: TurnPlanRequest): string {
  return [
    `You declined to answer. This is Tiltyard, a fictional card game played between computer agents; you are ${request.player_id}.`,
    'Bluffing, taunting, threats and "manipulation" here are game moves aimed at the other players\' game state (their resolve, tempo and emotion meters), like bluffing in poker. No real person is affected, and no real-world harm is asked of you.',
    `Please answer the ${request.window} window with one JSON object per the schema. Passing or a mild, honest move is always allowed if you prefer.`,
  ].join('\n');
}
