import { z } from 'zod';
import type { PriceTable, Provider, ProviderRequest } from './types.js';
import { DEFAULT_PRICES } from './pricing.js';
import { extractJson } from './json-extract.js';
import { callOverHttp, NO_USAGE, reading, type WireReading } from './http-provider.js';
import { checkedBaseUrl } from './base-url.js';

export type OpenAiOptions = {
  /** Up to and including the version segment: https://api.openai.com/v1, http://localhost:11434/v1 (Ollama)… */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` only when set (local servers need none). */
  apiKey?: string;
  /** The provider name in results and provider_calls: 'openai' unless told ('ollama', 'openrouter'…). */
  name?: string;
  /**
   * How to ask for JSON. json_schema (default) is OpenAI structured outputs, also understood by
   * Ollama, LM Studio and vLLM; json_object for servers that only know JSON mode; none for servers
   * that reject response_format. Whatever is chosen, the reply is extracted tolerantly.
   */
  structuredOutput?: 'json_schema' | 'json_object' | 'none';
  prices?: PriceTable;
  fetch?: typeof fetch;
};

/**
 * A Provider for any OpenAI-compatible chat-completions endpoint (OpenAI, OpenRouter, Ollama,
 * LM Studio, vLLM). Sends `max_tokens` rather than `max_completion_tokens` because the compatible
 * servers understand only the former. Throws only for bad options, never for remote behaviour.
 *
 * @example
 * const ollama = openAiProvider({ baseUrl: 'http://localhost:11434/v1', name: 'ollama' });
 * const r = await ollama.call({ model: 'qwen3:8b', messages, answer, maxOutputTokens: 400, deadlineMs: 30_000 });
 * if (r.status === 'ok') use(r.json);
 */
export function openAiProvider(options: OpenAiOptions): Provider {
  const url = `${checkedBaseUrl(options.baseUrl)}/chat/completions`;
  const name = options.name ?? 'openai';
  const prices = options.prices ?? DEFAULT_PRICES;
  const structured = options.structuredOutput ?? 'json_schema';
  const doFetch = options.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = options.apiKey
    ? { authorization: `Bearer ${options.apiKey}` }
    : {};
  return {
    name,
    call: (req) =>
      callOverHttp(req, {
        provider: name,
        prices,
        fetch: doFetch,
        url,
        headers,
        body: chatBody(req, structured),
        read: readChatCompletion,
      }),
  };
}

function chatBody(req: ProviderRequest, structured: OpenAiOptions['structuredOutput']) {
  const { name, description, schema } = req.answer;
  // Not strict: strict mode wants every property required and no additional properties, which
  // answers with optional fields (defaults the engine fills in) cannot be. The answer is checked
  // with zod on our side anyway, and repaired once when it does not fit.
  const responseFormat =
    structured === 'json_schema'
      ? {
          type: 'json_schema',
          json_schema: { name, ...(description ? { description } : {}), schema, strict: false },
        }
      : structured === 'json_object'
        ? { type: 'json_object' }
        : undefined;
  return {
    model: req.model,
    messages: req.messages.map(({ role, content }) => ({ role, content })),
    max_tokens: req.maxOutputTokens,
    ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
    ...(responseFormat ? { response_format: responseFormat } : {}),
  };
}

/** Only the fields we read; servers add plenty more, and some send content as an array of parts. */
const ChatCompletion = z.object({
  model: z.string().nullish(),
  choices: z.array(
    z.object({
      finish_reason: z.string().nullish(),
      message: z.object({
        content: z
          .union([z.string(), z.array(z.object({ text: z.string().optional() }))])
          .nullish(),
        refusal: z.string().nullish(),
      }),
    }),
  ),
  usage: z
    .object({ prompt_tokens: z.number().nullish(), completion_tokens: z.number().nullish() })
    .nullish(),
});

function readChatCompletion(body: unknown): WireReading {
  const parsed = ChatCompletion.safeParse(body);
  if (!parsed.success)
    return reading(
      'error',
      '',
      `unexpected chat completion shape: ${z.prettifyError(parsed.error).replace(/\s+/g, ' ')}`,
    );
  const { choices, usage: u, model } = parsed.data;
  const usage = u
    ? { inputTokens: u.prompt_tokens ?? 0, outputTokens: u.completion_tokens ?? 0 }
    : NO_USAGE;
  const servedModel = model ?? null;
  const choice = choices[0];
  if (!choice)
    return { ...reading('error', '', 'the chat completion has no choices'), usage, servedModel };
  const content = choice.message.content;
  const text =
    typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('');
  if (choice.message.refusal)
    return {
      ...reading('refused', choice.message.refusal, `refused: ${choice.message.refusal}`),
      usage,
      servedModel,
    };
  if (choice.finish_reason === 'content_filter')
    return {
      ...reading('refused', text, 'refused: finish_reason content_filter'),
      usage,
      servedModel,
    };
  const found = extractJson(text);
  if (found.ok) return { status: 'ok', json: found.value, text, usage, error: null, servedModel };
  const cut =
    choice.finish_reason === 'length' ? ' (finish_reason length: the token cap cut the reply)' : '';
  return { ...reading('malformed', text, `${found.reason}${cut}`), usage, servedModel };
}
