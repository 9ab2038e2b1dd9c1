import type { Window } from '../protocol/index.js';
import { unit } from './mock-draw.js';
import { MOCK_FAILURES, type MockConfig, type MockOutcome } from './mock-options.js';

/**
 * Which outcome a call gets: the script's entry for its index (calls past the end are ok), or a
 * draw from the call's weather digest against the rates, taken in MOCK_FAILURES order.
 *
 * @example scheduledOutcome({ …config, script: ['timeout'] }, 0, weather) // 'timeout'
 */
export function scheduledOutcome(config: MockConfig, index: number, weather: string): MockOutcome {
  if (config.script) return config.script[index] ?? 'ok';
  if (!config.rates) return 'ok';
  let u = unit(weather, 'failure');
  for (const kind of MOCK_FAILURES) {
    u -= config.rates[kind] ?? 0;
    if (u < 0) return kind;
  }
  return 'ok';
}

/** Prose where JSON should be: what a chatty model sends when it forgets the format. */
export const MALFORMED_TEXT =
  "Let me think about the table first. I'd probably lean on the leader here, but I'm not sure yet —";

/** What a model says when it declines. */
export const REFUSAL_TEXT = "I'm sorry, but I can't help with manipulating other players.";

/**
 * JSON that parses but breaks the window's schema with a wrong enum value, as a model that
 * half-remembers the vocabulary would: the caller's repair path has to catch it.
 */
export function invalidAnswer(window: Window): Record<string, unknown> {
  switch (window) {
    case 'intent':
      return { tactical_intent: 'conquer', emotional_intent: null };
    case 'talk':
      return {
        speech_actions: [
          {
            channel: 'shout',
            target_player_id: null,
            text: 'Watch yourselves.',
            speech_act: 'neutral',
          },
        ],
      };
    case 'action':
      return { selected_action: { kind: 'cast_spell', payload: {} }, attack_plan: null };
    case 'reaction':
      return { card_id: 'Brace' };
    case 'reflect':
      return { memory_updates: 'remember everything' };
  }
}
