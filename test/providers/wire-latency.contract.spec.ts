import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BudgetMeter } from '../../src/providers/budget.js';
import { DEFAULT_PRICES } from '../../src/providers/pricing.js';
import { openAiProvider } from '../../src/providers/openai.js';
import { route } from '../../src/providers/router.js';
import { SpendLedger, worstCallUsd } from '../../src/providers/spend-ledger.js';
import { seatSummaries } from '../../src/runner/seat-summary.js';
import type { ProviderCallRow } from '../../src/store/index.js';
import { ANSWER_TEXT, request } from './contract-fixtures.js';
import { openAiWire, startFakeLlmServer, type FakeLlmServer } from './fake-llm-server.js';

/**
 * Wire latency apart from queueing, against a local server that takes DELAY_MS per reply: calls
 * held back in Tiltyard (here by the cost cap, which fits one hold at a time) wait longer and
 * longer, and that wait is `queuedMs`, never the model's `latencyMs` (wire). Only lower bounds
 * are asserted: the server's delay bounds each wire time, and the calls sent before bound a wait.
 */
const DELAY_MS = 200;
const CALLS = 4;

let server: FakeLlmServer;
beforeEach(async () => (server = await startFakeLlmServer()));
afterEach(() => server.close());

describe('wire latency and queued time', () => {
  it('given calls held back by the cap, then wire p50 stays at the server delay while queued grows by a call each', async () => {
    const provider = openAiProvider({ baseUrl: `${server.url}/v1`, apiKey: 'sk-test', prices: DEFAULT_PRICES });
    const ask = request('gpt-4o', { deadlineMs: 30_000 });
    const worst = worstCallUsd(DEFAULT_PRICES, ask)!;
    // One hold fits at a time: every other call waits in Tiltyard for the one in flight to settle.
    const ledger = new SpendLedger(worst * 1.5);
    server.reply(...Array.from({ length: CALLS }, () => ({ delayMs: DELAY_MS, body: openAiWire.content(ANSWER_TEXT) })));
    const budgets = () => ({ decision: new BudgetMeter('decision', {}), game: new BudgetMeter('game', {}) });
    const { model: _model, ...rest } = ask;
    const results = await Promise.all(
      Array.from({ length: CALLS }, () => route(rest, { providers: new Map([['openai', provider]]), chain: [{ provider: 'openai', model: 'gpt-4o' }], budgets: budgets(), spend: { ledger, prices: DEFAULT_PRICES } })),
    );
    const calls = results.map((r) => r.result!);
    expect(calls.map((c) => c.status)).toEqual(Array(CALLS).fill('ok'));
    // Each call's wire time is its own reply's; none includes the wait for the others.
    for (const c of calls) expect(c.latencyMs).toBeGreaterThanOrEqual(DELAY_MS - 5);
    const queued = calls.map((c) => c.queuedMs!).sort((a, b) => a - b);
    // The k-th call sent waited for the k − 1 before it, each at least DELAY_MS on the wire.
    queued.forEach((q, k) => expect(q).toBeGreaterThanOrEqual(k * (DELAY_MS - 5)));

    // The seat's figures say the same: wire p50 is one reply's time, queued max several.
    const rows: ProviderCallRow[] = calls.map((c) => ({ provider: c.provider, model: c.model, request_hash: c.requestHash, input_tokens: 0, output_tokens: 0, cost_usd: c.costUsd, latency_ms: Math.round(c.latencyMs), queued_ms: Math.round(c.queuedMs!), status: c.status, error: null, player_id: 'plr_1', turn: 1, window: 'action' }));
    const [seat] = seatSummaries([{ player_id: 'plr_1', agent: 'llm:openai:gpt-4o' }], [], rows);
    expect(seat!.wire_ms!.p50).toBeGreaterThanOrEqual(DELAY_MS - 5);
    expect(seat!.queued_ms!.max).toBeGreaterThanOrEqual((CALLS - 1) * (DELAY_MS - 5));
    expect(seat!.queued_ms!.max).toBeGreaterThan(seat!.wire_ms!.p50);
  });
});
