import { describe, expect, it } from 'vitest';
import { BudgetMeter } from '../../src/providers/budget.js';
import { route, type ModelRef } from '../../src/providers/router.js';
import type { CallStatus, Provider, ProviderResult } from '../../src/providers/types.js';

/** A provider that answers from a script of statuses, by call, and records the models it was asked. */
function scripted(name: string, script: CallStatus[], extra: Partial<ProviderResult> = {}): Provider & { asked: string[] } {
  const asked: string[] = [];
  return {
    name,
    asked,
    call(req) {
      asked.push(req.model);
      const status = script.shift() ?? 'ok';
      return Promise.resolve({ status, json: status === 'ok' ? { ok: true } : null, text: '', usage: { inputTokens: 10, outputTokens: 10 }, costUsd: 0.01, latencyMs: 5, provider: name, model: req.model, error: status === 'ok' ? null : status, retryAfterMs: null, requestHash: 'h', ...extra });
    },
  };
}

const request = { messages: [], answer: { name: 'x', schema: {} }, maxOutputTokens: 100, deadlineMs: 1000 };
const budgets = (decision = {}, game = {}) => ({ decision: new BudgetMeter('decision', decision), game: new BudgetMeter('game', game) });
const chain: ModelRef[] = [
  { provider: 'a', model: 'big' },
  { provider: 'b', model: 'small' },
];

async function run(a: Provider, b: Provider, opts: { decision?: object; game?: object } = {}) {
  const waits: number[] = [];
  const statuses: string[] = [];
  const r = await route(request, { providers: new Map([['a', a], ['b', b]]), chain, budgets: budgets(opts.decision, opts.game), sleep: (ms) => (waits.push(ms), Promise.resolve()), onCall: (x) => statuses.push(`${x.provider}:${x.status}`) });
  return { r, waits, statuses };
}

describe('route', () => {
  it('given an answer, then it is returned after one call', async () => {
    const { r, statuses } = await run(scripted('a', ['ok']), scripted('b', []));
    expect(r).toMatchObject({ answered: true, calls: 1, reason: null, result: { status: 'ok' } });
    expect(statuses).toEqual(['a:ok']);
  });

  it('given a timeout, then the same model is retried once, then the next model', async () => {
    expect((await run(scripted('a', ['timeout', 'ok']), scripted('b', []))).statuses).toEqual(['a:timeout', 'a:ok']);
    expect((await run(scripted('a', ['timeout', 'timeout']), scripted('b', ['ok']))).statuses).toEqual(['a:timeout', 'a:timeout', 'b:ok']);
  });

  it('given 429 with Retry-After, then it waits that long; given 5xx without, it backs off 250, 500, then moves on', async () => {
    const limited = await run(scripted('a', ['rate_limited', 'ok'], { retryAfterMs: 2000 }), scripted('b', []));
    expect(limited.waits).toEqual([2000]);
    expect(limited.statuses).toEqual(['a:rate_limited', 'a:ok']);
    const down = await run(scripted('a', ['unavailable', 'unavailable', 'unavailable']), scripted('b', ['ok']));
    expect(down.waits).toEqual([250, 500]);
    expect(down.statuses).toEqual(['a:unavailable', 'a:unavailable', 'a:unavailable', 'b:ok']);
  });

  it('given a Retry-After longer than the cap or the budget left, then it moves on without waiting', async () => {
    const long = await run(scripted('a', ['rate_limited'], { retryAfterMs: 60_000 }), scripted('b', ['ok']));
    expect(long.waits).toEqual([]);
    expect(long.statuses).toEqual(['a:rate_limited', 'b:ok']);
  });

  it('given a refusal or an error, then the next model; given malformed text, then it is returned for repair', async () => {
    expect((await run(scripted('a', ['refused']), scripted('b', ['ok']))).statuses).toEqual(['a:refused', 'b:ok']);
    expect((await run(scripted('a', ['error']), scripted('b', ['ok']))).statuses).toEqual(['a:error', 'b:ok']);
    expect((await run(scripted('a', ['malformed']), scripted('b', []))).r).toMatchObject({ answered: true, result: { status: 'malformed' } });
  });

  it('given every model failing, then no answer, with the last failure as the reason', async () => {
    const { r } = await run(scripted('a', ['refused']), scripted('b', ['error']));
    expect(r).toMatchObject({ answered: false, calls: 2, reason: expect.stringContaining('b:small error') });
  });

  it('given an exhausted budget, then no further call is made', async () => {
    const game = await run(scripted('a', ['timeout', 'ok']), scripted('b', []), { game: { cost_usd: 0.01 } });
    expect(game.statuses).toEqual(['a:timeout']);
    expect(game.r).toMatchObject({ answered: false, reason: 'game budget exhausted (cost_usd)' });
    const none = await run(scripted('a', []), scripted('b', []), { decision: { tokens: 0 } });
    expect(none.r).toMatchObject({ answered: false, calls: 0, reason: 'decision budget exhausted (tokens)' });
  });
});
