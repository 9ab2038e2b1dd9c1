import { z } from 'zod';
import type { AnswerSchema, PriceTable, Provider, ProviderRequest } from './types.js';
import { DEFAULT_PRICES } from './pricing.js';
import { extractJson } from './json-extract.js';
import { callOverHttp, NO_USAGE, reading, type WireReading } from './http-provider.js';
import { checkedBaseUrl } from './base-url.js';

export type AnthropicOptions = {
  /** Defaults to https://api.anthropic.com; the provider appends /v1/messages. */
  baseUrl?: string;
  apiKey: string;
  prices?: PriceTable;
  fetch?: typeof fetch;
};

export const ANTHROPIC_VERSION = '2023-06-01';

/**
 * A Provider for Anthropic's Messages API. The answer schema becomes the one tool the model is
 * forced to call (tool_choice), which is Anthropic's way to get schema-shaped JSON; the tool call's
 * input is the answer. Throws only for bad options (no key, bad URL), never for remote behaviour.
 *
 * @example
 * const claude = anthropicProvider({ apiKey: process.env.ANTHROPIC_API_KEY ?? '' });
 * const r = await claude.call({ model: 'claude-sonnet-4-20250514', messages, answer, maxOutputTokens: 600, deadlineMs: 30_000 });
 * if (r.status === 'ok') use(r.json);
 */
export function anthropicProvider(options: AnthropicOptions): Provider {
  if (!options.apiKey) throw new Error('anthropicProvider needs an apiKey');
  const url = `${checkedBaseUrl(options.baseUrl ?? 'https://api.anthropic.com')}/v1/messages`;
  const prices = options.prices ?? DEFAULT_PRICES;
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers = { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_VERSION };
  return {
    name: 'anthropic',
    call: (req) =>
      callOverHttp(req, {
        provider: 'anthropic',
        prices,
        fetch: doFetch,
        url,
        headers,
        body: messagesBody(req),
        read: (body) => readMessage(body, req.answer),
      }),
  };
}

function messagesBody(req: ProviderRequest) {
  const { name, description, schema } = req.answer;
  // The Messages API takes the system prompt apart from the turns, which may only be user or assistant.
  const system = req.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n\n');
  return {
    model: req.model,
    max_tokens: req.maxOutputTokens,
    ...(system ? { system } : {}),
    messages: req.messages
      .filter((m) => m.role !== 'system')
      .map(({ role, content }) => ({ role, content })),
    ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    tools: [{ name, ...(description ? { description } : {}), input_schema: schema }],
    tool_choice: { type: 'tool', name },
  };
}

/** Only the fields we read; content blocks of other types (thinking…) are kept loose and ignored. */
const Message = z.object({
  model: z.string().nullish(),
  stop_reason: z.string().nullish(),
  content: z.array(
    z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      name: z.string().optional(),
      input: z.unknown().optional(),
    }),
  ),
  usage: z
    .object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() })
    .nullish(),
});

function readMessage(body: unknown, answer: AnswerSchema): WireReading {
  const parsed = Message.safeParse(body);
  if (!parsed.success)
    return reading(
      'error',
      '',
      `unexpected message shape: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`,
    );
  const { content, stop_reason: stop, usage: u, model } = parsed.data;
  const usage = u
    ? { inputTokens: u.input_tokens ?? 0, outputTokens: u.output_tokens ?? 0 }
    : NO_USAGE;
  const servedModel = model ?? null;
  const text = content.map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join('');
  if (stop === 'refusal')
    return { ...reading('refused', text, 'refused: stop_reason refusal'), usage, servedModel };
  const tools = content.filter((block) => block.type === 'tool_use' && block.input !== undefined);
  const call = tools.find((block) => block.name === answer.name) ?? tools[0];
  if (call && stop === 'max_tokens') {
    // The token cap can stop the model mid-call, leaving a partial input that only looks like an answer.
    return {
      ...reading(
        'malformed',
        JSON.stringify(call.input) ?? '',
        'stop_reason max_tokens: the token cap cut the tool call',
      ),
      usage,
      servedModel,
    };
  }
  if (call)
    return {
      status: 'ok',
      json: call.input,
      text: JSON.stringify(call.input) ?? '',
      usage,
      error: null,
      servedModel,
    };
  // Some proxies and older models answer in text despite tool_choice: accept JSON found there.
  const found = extractJson(text);
  if (found.ok) return { status: 'ok', json: found.value, text, usage, error: null, servedModel };
  const cut = stop === 'max_tokens' ? ' (stop_reason max_tokens: the token cap cut the reply)' : '';
  return { ...reading('malformed', text, `${found.reason}${cut}`), usage, servedModel };
}
