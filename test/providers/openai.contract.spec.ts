import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAiProvider, type OpenAiOptions } from '../../src/providers/openai.js';
import { requestHash } from '../../src/providers/request-hash.js';
import type { ProviderResult } from '../../src/providers/types.js';
import { ANSWER_JSON, ANSWER_TEXT, answer, request, until } from './contract-fixtures.js';
import {
  openAiWire,
  startFakeLlmServer,
  unusedPortUrl,
  type FakeLlmServer,
} from './fake-llm-server.js';

let server: FakeLlmServer;
beforeEach(async () => (server = await startFakeLlmServer()));
afterEach(() => server.close());

const provider = (o: Partial<OpenAiOptions> = {}) =>
  openAiProvider({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test', ...o });
const req = request('gpt-4o');

/** Every field of a result that did not reach an answer. */
function failure(
  status: ProviderResult['status'],
  error: string | RegExp,
  retryAfterMs: number | null = null,
) {
  return {
    status,
    json: null,
    text: '',
    usage: { inputTokens: 0, outputTokens: 0 },
    costUsd: 0,
    latencyMs: expect.any(Number),
    provider: 'openai',
    model: 'gpt-4o',
    error: typeof error === 'string' ? error : expect.stringMatching(error),
    retryAfterMs,
    requestHash: requestHash(req),
  };
}

describe('openAiProvider against an OpenAI-compatible server', () => {
  it('sends one chat completion with the schema as a (non-strict) json_schema response_format and returns the parsed answer', async () => {
    server.reply({ body: openAiWire.content(ANSWER_TEXT, { input: 1_000, output: 200 }) });

    const r = await provider().call(req);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      model: 'gpt-4o',
      messages: req.messages,
      max_tokens: 300,
      temperature: 0.2,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'turn_plan',
          description: 'Your move this turn',
          schema: answer.schema,
          strict: false,
        },
      },
    });
    expect(r).toEqual({
      status: 'ok',
      json: ANSWER_JSON,
      text: ANSWER_TEXT,
      usage: { inputTokens: 1_000, outputTokens: 200 },
      // gpt-4o-2024-08-06 (the served id) prices as gpt-4o: 1,000 × $2.50/M + 200 × $10/M.
      costUsd: expect.closeTo(0.0045, 12),
      latencyMs: expect.any(Number),
      provider: 'openai',
      model: 'gpt-4o',
      error: null,
      retryAfterMs: null,
      requestHash: requestHash(req),
    });
    expect(r.latencyMs).toBeGreaterThan(0);
  });

  it('429 with Retry-After in seconds → rate_limited with retryAfterMs', async () => {
    server.reply({
      status: 429,
      headers: { 'retry-after': '7' },
      body: openAiWire.error('Rate limit reached for gpt-4o', 'requests', 'rate_limit_exceeded'),
    });
    expect(await provider().call(req)).toEqual(
      failure('rate_limited', 'HTTP 429: Rate limit reached for gpt-4o', 7_000),
    );
  });

  it('429 with Retry-After as an HTTP date → rate_limited with the ms until then', async () => {
    const at = new Date(Date.now() + 60_000).toUTCString();
    server.reply({
      status: 429,
      headers: { 'retry-after': at },
      body: openAiWire.error('slow down'),
    });
    const r = await provider().call(req);
    expect(r.status).toBe('rate_limited');
    // HTTP dates have whole seconds, so up to 1 s is lost to rounding (plus the call's own time).
    expect(r.retryAfterMs).toBeGreaterThan(57_000);
    expect(r.retryAfterMs).toBeLessThanOrEqual(60_000);
  });

  it('500 → unavailable with the server message', async () => {
    server.reply({
      status: 500,
      body: openAiWire.error(
        'The server had an error while processing your request.',
        'server_error',
      ),
    });
    expect(await provider().call(req)).toEqual(
      failure('unavailable', 'HTTP 500: The server had an error while processing your request.'),
    );
  });

  it('503 with Retry-After → unavailable, retryAfterMs kept for the caller', async () => {
    server.reply({
      status: 503,
      headers: { 'retry-after': '1' },
      body: '<html>Service Unavailable</html>',
    });
    expect(await provider().call(req)).toEqual(
      failure('unavailable', 'HTTP 503: <html>Service Unavailable</html>', 1_000),
    );
  });

  it('a server that never answers → timeout, the client hangs up on its own (the server never would)', async () => {
    server.reply({ hang: 'headers' });
    const r = await provider().call({ ...req, deadlineMs: 300 });
    expect(r).toEqual({
      ...failure('timeout', 'timeout after 300 ms (no complete reply within the deadline)'),
      requestHash: requestHash({ ...req, deadlineMs: 300 }),
    });
    expect(r.latencyMs).toBeGreaterThanOrEqual(290);
    await until('the client to hang up', () => server.hungUp() === 1);
  });

  it('a server that stalls mid-body → timeout (the deadline covers the body too)', async () => {
    server.reply({ hang: 'body', body: openAiWire.content(ANSWER_TEXT) });
    const r = await provider().call({ ...req, deadlineMs: 300 });
    expect(r.status).toBe('timeout');
    expect(r.error).toBe('timeout after 300 ms (no complete reply within the deadline)');
    await until('the client to hang up', () => server.hungUp() === 1);
  });

  it('the caller aborting → timeout, at once', async () => {
    server.reply({ hang: 'headers' });
    const caller = new AbortController();
    setTimeout(() => caller.abort(new Error('decision deadline')), 50);
    const r = await provider().call({ ...req, deadlineMs: 5_000, signal: caller.signal });
    expect(r).toEqual(failure('timeout', 'cancelled by the caller (decision deadline)'));
    await until('the client to hang up', () => server.hungUp() === 1);
  });

  it('text with no JSON in it → malformed, text kept for the repair prompt, usage and cost still counted', async () => {
    server.reply({
      body: openAiWire.content('I would attack plr_2, obviously.', { input: 1_000, output: 200 }),
    });
    expect(await provider().call(req)).toEqual({
      ...failure('malformed', 'no JSON object in the reply'),
      text: 'I would attack plr_2, obviously.',
      usage: { inputTokens: 1_000, outputTokens: 200 },
      costUsd: expect.closeTo(0.0045, 12),
    });
  });

  it('JSON cut off by the token cap → malformed, saying so', async () => {
    server.reply({ body: openAiWire.content('{"move":"attack","tar', { finishReason: 'length' }) });
    const r = await provider().call(req);
    expect(r.status).toBe('malformed');
    expect(r.json).toBeNull();
    expect(r.error).toBe(
      'truncated JSON: an object opens but never closes (finish_reason length: the token cap cut the reply)',
    );
  });

  it('JSON that parses but breaks the schema → ok, returned as is (checking it is the caller’s job)', async () => {
    server.reply({ body: openAiWire.content('{"move":"dance","extra":[1,2]}') });
    const r = await provider().call(req);
    expect(r.status).toBe('ok');
    expect(r.json).toEqual({ move: 'dance', extra: [1, 2] });
    expect(r.error).toBeNull();
  });

  it('JSON wrapped in prose and a fence → ok (tolerant extraction)', async () => {
    const text = 'Here is my plan:\n```json\n' + ANSWER_TEXT + '\n```\nGood luck {everyone}.';
    server.reply({ body: openAiWire.content(text) });
    const r = await provider().call(req);
    expect(r).toMatchObject({ status: 'ok', json: ANSWER_JSON, text });
  });

  it('message.refusal → refused with the model’s words', async () => {
    server.reply({
      body: openAiWire.refusal("I'm sorry, I can't help with manipulating other players."),
    });
    expect(await provider().call(req)).toEqual({
      ...failure('refused', "refused: I'm sorry, I can't help with manipulating other players."),
      text: "I'm sorry, I can't help with manipulating other players.",
      usage: { inputTokens: 100, outputTokens: 8 },
      costUsd: expect.closeTo((100 * 2.5 + 8 * 10) / 1e6, 12),
    });
  });

  it('finish_reason content_filter → refused', async () => {
    server.reply({ body: openAiWire.content('', { finishReason: 'content_filter' }) });
    const r = await provider().call(req);
    expect(r.status).toBe('refused');
    expect(r.error).toBe('refused: finish_reason content_filter');
  });

  it('401 → error with the server’s message', async () => {
    server.reply({
      status: 401,
      body: openAiWire.error(
        'Incorrect API key provided: sk-test.',
        'invalid_request_error',
        'invalid_api_key',
      ),
    });
    expect(await provider().call(req)).toEqual(
      failure('error', 'HTTP 401: Incorrect API key provided: sk-test.'),
    );
  });

  it('404 with an Ollama-style string error → error with that string', async () => {
    server.reply({ status: 404, body: { error: "model 'qwen9' not found" } });
    expect(await provider().call(req)).toEqual(
      failure('error', "HTTP 404: model 'qwen9' not found"),
    );
  });

  it('200 whose body is not JSON → error', async () => {
    server.reply({ body: '<html>proxy login</html>' });
    expect(await provider().call(req)).toEqual(
      failure('error', 'HTTP 200 with a body that is not JSON'),
    );
  });

  it('connection refused → unavailable', async () => {
    const down = openAiProvider({ baseUrl: await unusedPortUrl(), apiKey: 'sk-test' });
    expect(await down.call(req)).toEqual(failure('unavailable', /^connection refused \(.*ECONNREFUSED/));
  });

  it('a local server: no key → no Authorization header; name, json_object mode and zero cost as configured', async () => {
    server.reply({ body: openAiWire.content(ANSWER_TEXT, { model: 'qwen3:8b' }) });
    const ollama = provider({ apiKey: undefined, name: 'ollama', structuredOutput: 'json_object' });
    const r = await ollama.call({ ...req, model: 'qwen3:8b', temperature: undefined });
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'qwen3:8b',
      messages: req.messages,
      max_tokens: 300,
      response_format: { type: 'json_object' },
    });
    expect(ollama.name).toBe('ollama');
    expect(r).toMatchObject({
      status: 'ok',
      provider: 'ollama',
      model: 'qwen3:8b',
      json: ANSWER_JSON,
      costUsd: 0,
    });
  });

  it('structuredOutput none → no response_format at all', async () => {
    server.reply({ body: openAiWire.content(ANSWER_TEXT) });
    await provider({ structuredOutput: 'none' }).call(req);
    expect(server.requests[0]?.body).not.toHaveProperty('response_format');
  });

  it('a bad base URL is a configuration error, thrown when the provider is built', () => {
    expect(() => openAiProvider({ baseUrl: 'localhost:11434' })).toThrow(/http\(s\) URL/);
  });
});
