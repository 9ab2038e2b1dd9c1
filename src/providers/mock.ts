import { TurnPlanRequest } from '../protocol/index.js';
import { mockAnswer, personalityFor } from './mock-decide.js';
import { between, digest } from './mock-draw.js';
import { invalidAnswer, MALFORMED_TEXT, REFUSAL_TEXT, scheduledOutcome } from './mock-failures.js';
import { mockConfig, type MockOptions } from './mock-options.js';
import { readRequestBlock } from './mock-prompt.js';
import { abortableSleep } from '../lib/abortable-sleep.js';
import { costOf } from './pricing.js';
import { requestHash } from './request-hash.js';
import type { CallStatus, Provider, ProviderRequest, ProviderResult, Usage } from './types.js';

export type { MockOptions } from './mock-options.js';

/** Retries of one request draw fresh weather; past this many distinct requests the oldest counts are forgotten. */
const ATTEMPTS_KEPT = 1024;

const tokens = (chars: number) => Math.ceil(chars / 4);
const NO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

type Parsed = { ok: true; request: TurnPlanRequest; block: string } | { ok: false; error: string };

function parseBlock(req: ProviderRequest): Parsed {
  const block = readRequestBlock(req.messages);
  if (block === null) return { ok: false, error: 'mock: no tiltyard-request block in the prompt' };
  let raw: unknown;
  try {
    raw = JSON.parse(block);
  } catch (e) {
    return {
      ok: false,
      error: `mock: the tiltyard-request block is not JSON (${(e as Error).message})`,
    };
  }
  const parsed = TurnPlanRequest.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error: `mock: the tiltyard-request block is not a TurnPlanRequest (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`,
    };
  }
  // The block's own text identifies the request: the LLM agent writes it with JSON.stringify, so
  // re-serialising it would only cost time.
  return { ok: true, request: parsed.data, block: block.trim() };
}

/**
 * A deterministic stand-in for an LLM (`--agents llm:mock`, tests, demos). It reads the seat's
 * TurnPlanRequest from the last user message's ```json tiltyard-request block and answers as a
 * built-in heuristic agent would: legal, with real AttackPlans, plus a one-sentence `reasoning`.
 *
 * Same `meta.seed` and same request → the same answer, byte for byte. The seat's personality
 * (balanced, aggressor, turtle, manipulator, trickster) comes from the seed and seat; the answer
 * from seed + request_id + window + request. Latency and injected failures are drawn from that
 * digest plus how often this provider has seen the request, so a retry gets fresh weather while a
 * replayed sequence of calls gets the same weather. Latency is simulated through `sleep`; the
 * reported latencyMs is the simulated one. Usage is ceil(chars / 4) each way; cost comes from
 * `prices` (default: free).
 *
 * @example
 * const mock = mockProvider({ latencyMs: [200, 900], failures: { malformed: 0.05 } });
 * const r = await mock.call({ model: 'mock', messages: buildMessages(dir, request), answer, maxOutputTokens: 2_000, deadlineMs: 5_000, meta: { seed: '7:1' } });
 * // r.status 'ok', r.json { selected_action: {…}, attack_plan: {…}, reasoning: 'I play Feint on Bram to work fear through bait.' }
 */
export function mockProvider(options: MockOptions = {}): Provider {
  // Real timers by default; an abort ends the wait early and the call reports it as a result.
  const { sleep = abortableSleep, ...rest } = options;
  const config = mockConfig(rest);
  const attempts = new Map<string, number>();
  let calls = 0;

  /** How many times this request was asked before (the map stays small: oldest first out). */
  function attemptOf(key: string): number {
    const n = attempts.get(key) ?? 0;
    attempts.delete(key);
    attempts.set(key, n + 1);
    if (attempts.size > ATTEMPTS_KEPT) attempts.delete(attempts.keys().next().value!);
    return n;
  }

  async function call(req: ProviderRequest): Promise<ProviderResult> {
    const index = calls++;
    const promptChars = req.messages.reduce((n, m) => n + m.content.length, 0);
    const base = {
      provider: 'mock',
      model: req.model,
      requestHash: requestHash(req),
      retryAfterMs: null as number | null,
    };
    const result = (
      status: CallStatus,
      latencyMs: number,
      text: string,
      json: unknown,
      error: string | null,
      usage = NO_USAGE,
    ): ProviderResult => ({
      ...base,
      status,
      latencyMs,
      text,
      json,
      error,
      usage,
      costUsd: costOf(config.prices, req.model, usage).usd,
    });
    const ran = (text: string): Usage => ({
      inputTokens: tokens(promptChars),
      outputTokens: tokens(text.length),
    });
    const cancelled = (latencyMs: number) =>
      result('timeout', latencyMs, '', null, 'mock: cancelled by the caller');

    if (req.signal?.aborted) return cancelled(0);
    const parsed = parseBlock(req);
    if (!parsed.ok) return result('error', 0, '', null, parsed.error);
    const r = parsed.request;
    const key = digest(req.meta?.seed ?? '', r.request_id, r.window, parsed.block);
    const weather = digest(key, attemptOf(key));
    const outcome = scheduledOutcome(config, index, weather);
    const latencyMs = between(weather, 'latency', config.latency[0], config.latency[1]);

    if (outcome === 'timeout' || latencyMs > req.deadlineMs) {
      const waited = Math.max(0, req.deadlineMs);
      await sleep(waited, req.signal);
      if (req.signal?.aborted) return cancelled(waited);
      return result(
        'timeout',
        waited,
        '',
        null,
        `mock: no reply within the ${req.deadlineMs} ms deadline${outcome === 'timeout' ? ' (injected)' : ''}`,
      );
    }
    await sleep(latencyMs, req.signal);
    if (req.signal?.aborted) return cancelled(latencyMs);

    switch (outcome) {
      case 'error':
        return result('error', latencyMs, '', null, 'mock: provider error (injected)');
      case 'rate_limited':
        return {
          ...result('rate_limited', latencyMs, '', null, 'mock: rate limited (injected)'),
          retryAfterMs: between(weather, 'retry', 500, 3_000),
        };
      case 'refused':
        return result(
          'refused',
          latencyMs,
          REFUSAL_TEXT,
          null,
          'mock: refused (injected)',
          ran(REFUSAL_TEXT),
        );
      case 'malformed':
        return result(
          'malformed',
          latencyMs,
          MALFORMED_TEXT,
          null,
          'mock: no JSON in the reply (injected)',
          ran(MALFORMED_TEXT),
        );
      case 'invalid': {
        const text = JSON.stringify(invalidAnswer(r.window));
        return result('ok', latencyMs, text, JSON.parse(text), null, ran(text));
      }
      case 'ok':
        break;
    }
    let answer: Record<string, unknown>;
    try {
      answer = mockAnswer(
        r,
        key,
        config.personality ?? personalityFor(req.meta?.seed ?? '', r.player_id),
      );
    } catch (e) {
      return result(
        'error',
        latencyMs,
        '',
        null,
        `mock: the built-in agent failed (${(e as Error).message})`,
      );
    }
    const text = JSON.stringify(answer);
    // A real model stops at its token cap mid-answer; so does the mock, and the JSON is then lost.
    if (tokens(text.length) > req.maxOutputTokens) {
      const cut = text.slice(0, Math.max(0, req.maxOutputTokens) * 4);
      return result(
        'malformed',
        latencyMs,
        cut,
        null,
        `mock: the answer was cut at ${req.maxOutputTokens} output tokens`,
        ran(cut),
      );
    }
    return result('ok', latencyMs, text, JSON.parse(text), null, ran(text));
  }

  return { name: 'mock', call };
}
