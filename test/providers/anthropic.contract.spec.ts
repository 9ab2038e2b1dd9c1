import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anthropicProvider } from '../../src/providers/anthropic.js';
import { requestHash } from '../../src/providers/request-hash.js';
import type { ProviderResult } from '../../src/providers/types.js';
import { ANSWER_JSON, ANSWER_TEXT, answer, request, until } from './contract-fixtures.js';
import {
  anthropicWire,
  startFakeLlmServer,
  unusedPortUrl,
  type FakeLlmServer,
} from './fake-llm-server.js';

let server: FakeLlmServer;
beforeEach(async () => (server = await startFakeLlmServer()));
afterEach(() => server.close());

const provider = () => anthropicProvider({ baseUrl: server.url, apiKey: 'sk-ant-test' });
const req = request('claude-sonnet-4-20250514');

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
    provider: 'anthropic',
    model: 'claude-sonnet-4-20250514',
    error: typeof error === 'string' ? error : expect.stringMatching(error),
    retryAfterMs,
    requestHash: requestHash(req),
  };
}

describe('anthropicProvider against a Messages API server', () => {
  it('forces the answer tool, sends system apart from the turns, and returns the tool input', async () => {
    server.reply({
      body: anthropicWire.toolUse('turn_plan', ANSWER_JSON, { input: 1_000, output: 200 }),
    });

    const r = await provider().call(req);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers['x-api-key']).toBe('sk-ant-test');
    expect(sent.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-sonnet-4-20250514',
      max_tokens: 300,
      system: 'You are plr_1.\n\nAnswer with the turn_plan tool.',
      messages: req.messages.filter((m) => m.role !== 'system'),
      temperature: 0.2,
      tools: [
        { name: 'turn_plan', description: 'Your move this turn', input_schema: answer.schema },
      ],
      tool_choice: { type: 'tool', name: 'turn_plan' },
    });
    expect(r).toEqual({
      status: 'ok',
      json: ANSWER_JSON,
      text: ANSWER_TEXT,
      usage: { inputTokens: 1_000, outputTokens: 200 },
      // claude-sonnet-4-20250514 prices as claude-sonnet-4: 1,000 × $3/M + 200 × $15/M.
      costUsd: expect.closeTo(0.006, 12),
      latencyMs: expect.any(Number),
      provider: 'anthropic',
      model: 'claude-sonnet-4-20250514',
      error: null,
      retryAfterMs: null,
      requestHash: requestHash(req),
    });
    expect(r.latencyMs).toBeGreaterThan(0);
  });

  it('429 with retry-after → rate_limited with retryAfterMs', async () => {
    server.reply({
      status: 429,
      headers: { 'retry-after': '12' },
      body: anthropicWire.error(
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit',
      ),
    });
    expect(await provider().call(req)).toEqual(
      failure(
        'rate_limited',
        'HTTP 429: Number of request tokens has exceeded your per-minute rate limit',
        12_000,
      ),
    );
  });

  it('500 → unavailable', async () => {
    server.reply({ status: 500, body: anthropicWire.error('api_error', 'Internal server error') });
    expect(await provider().call(req)).toEqual(
      failure('unavailable', 'HTTP 500: Internal server error'),
    );
  });

  it('529 overloaded → unavailable, with retry-after when sent', async () => {
    server.reply({
      status: 529,
      headers: { 'retry-after': '30' },
      body: anthropicWire.error('overloaded_error', 'Overloaded'),
    });
    expect(await provider().call(req)).toEqual(
      failure('unavailable', 'HTTP 529: Overloaded', 30_000),
    );
  });

  it('a server that never answers → timeout, the client hangs up on its own (the server never would)', async () => {
    server.reply({ hang: 'headers' });
    const slow = { ...req, deadlineMs: 300 };
    const r = await provider().call(slow);
    expect(r).toEqual({
      ...failure('timeout', 'timeout after 300 ms (no complete reply within the deadline)'),
      requestHash: requestHash(slow),
    });
    expect(r.latencyMs).toBeGreaterThanOrEqual(290);
    await until('the client to hang up', () => server.hungUp() === 1);
  });

  it('text with no JSON instead of the tool call → malformed, text and usage kept', async () => {
    server.reply({
      body: anthropicWire.text('Let me think about whom to attack…', { input: 1_000, output: 200 }),
    });
    expect(await provider().call(req)).toEqual({
      ...failure('malformed', 'no JSON object in the reply'),
      text: 'Let me think about whom to attack…',
      usage: { inputTokens: 1_000, outputTokens: 200 },
      costUsd: expect.closeTo(0.006, 12),
    });
  });

  it('JSON in text instead of the tool call → ok (tolerant extraction)', async () => {
    server.reply({ body: anthropicWire.text(`Plan: ${ANSWER_TEXT}`) });
    expect(await provider().call(req)).toMatchObject({
      status: 'ok',
      json: ANSWER_JSON,
      text: `Plan: ${ANSWER_TEXT}`,
    });
  });

  it('a tool call cut by max_tokens → malformed, not a partial answer', async () => {
    server.reply({
      body: anthropicWire.message(
        [{ type: 'tool_use', id: 'toolu_1', name: 'turn_plan', input: { move: 'attack' } }],
        { stopReason: 'max_tokens' },
      ),
    });
    const r = await provider().call(req);
    expect(r).toMatchObject({
      status: 'malformed',
      json: null,
      text: '{"move":"attack"}',
      error: 'stop_reason max_tokens: the token cap cut the tool call',
    });
  });

  it('a tool input that breaks the schema → ok, returned as is (checking it is the caller’s job)', async () => {
    server.reply({ body: anthropicWire.toolUse('turn_plan', { move: 'dance', extra: [1, 2] }) });
    const r = await provider().call(req);
    expect(r.status).toBe('ok');
    expect(r.json).toEqual({ move: 'dance', extra: [1, 2] });
    expect(r.error).toBeNull();
  });

  it('stop_reason refusal → refused', async () => {
    server.reply({ body: anthropicWire.refusal('I can’t help with that.') });
    expect(await provider().call(req)).toEqual({
      ...failure('refused', 'refused: stop_reason refusal'),
      text: 'I can’t help with that.',
      usage: { inputTokens: 100, outputTokens: 5 },
      costUsd: expect.closeTo((100 * 3 + 5 * 15) / 1e6, 12),
    });
  });

  it('401 → error with the server’s message', async () => {
    server.reply({
      status: 401,
      body: anthropicWire.error('authentication_error', 'invalid x-api-key'),
    });
    expect(await provider().call(req)).toEqual(failure('error', 'HTTP 401: invalid x-api-key'));
  });

  it('connection refused → unavailable', async () => {
    const down = anthropicProvider({ baseUrl: await unusedPortUrl(), apiKey: 'sk-ant-test' });
    expect(await down.call(req)).toEqual(failure('unavailable', /^connection refused \(.*ECONNREFUSED/));
  });

  it('no system messages → no system field; no temperature → none sent', async () => {
    server.reply({ body: anthropicWire.toolUse('turn_plan', ANSWER_JSON) });
    await provider().call({
      ...req,
      messages: [{ role: 'user', content: 'Go.' }],
      temperature: undefined,
    });
    const body = server.requests[0]?.body;
    expect(body).not.toHaveProperty('system');
    expect(body).not.toHaveProperty('temperature');
    expect(body).toMatchObject({ messages: [{ role: 'user', content: 'Go.' }] });
  });

  it('a missing key is a configuration error, thrown when the provider is built', () => {
    expect(() => anthropicProvider({ apiKey: '' })).toThrow(/apiKey/);
  });
});
