import type { TurnPlanRequest } from '../protocol/index.js';
import type { ChatMessage } from './types.js';

/** The line that opens the request block in an LLM agent's prompt (src/agents/llm/prompt.ts writes it). */
export const REQUEST_FENCE = '```json tiltyard-request';
const CLOSE_FENCE = '```';

/**
 * The raw JSON text of the tiltyard-request block in the last user message, or null. Only the last
 * user message counts: a repair prompt repeats the block there, and earlier turns may quote stale
 * requests. The last block in that message wins for the same reason.
 *
 * @example readRequestBlock([{ role: 'user', content: '…\n```json tiltyard-request\n{"request_id":"r1"}\n```' }]) // '{"request_id":"r1"}'
 */
export function readRequestBlock(messages: readonly ChatMessage[]): string | null {
  let last: ChatMessage | undefined;
  for (let i = messages.length - 1; i >= 0 && !last; i--)
    if (messages[i]!.role === 'user') last = messages[i];
  if (!last) return null;
  const lines = last.content.split('\n');
  let open = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i]!.trimEnd() === REQUEST_FENCE) {
      open = i;
      break;
    }
  }
  if (open < 0) return null;
  const close = lines.findIndex((l, i) => i > open && l.trimEnd() === CLOSE_FENCE);
  if (close < 0) return null;
  return lines.slice(open + 1, close).join('\n');
}

/**
 * A minimal prompt that carries a request the way the LLM agent does: for tests and demos that
 * drive the mock without the LLM agent.
 *
 * @example await mockProvider().call({ model: 'm', messages: requestMessages(request), answer, maxOutputTokens: 2000, deadlineMs: 1000 })
 */
export function requestMessages(request: TurnPlanRequest): ChatMessage[] {
  return [
    { role: 'system', content: 'You play Tiltyard. Answer with JSON only.' },
    {
      role: 'user',
      content: `Window: ${request.window}.\n\n${REQUEST_FENCE}\n${JSON.stringify(request)}\n${CLOSE_FENCE}`,
    },
  ];
}
