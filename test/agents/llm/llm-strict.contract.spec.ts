/**
 * The LLM seat is strict where models are sloppy, against a real local HTTP server speaking each
 * wire format: camelCase keys and made-up ids in every window get the repair turn (never a silent
 * default), refusals in both wire forms and in words get one repair turn restating the game, a
 * 429 burst is waited out within the decision's budget, an oversized answer is cut and recorded,
 * a dead endpoint is named as such, and trace sources name the real provider.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LLM_SKILL_DIR } from '../../../src/agents/seat/agent-spec.js';
import { llmSeat } from '../../../src/agents/llm/llm-seat.js';
import type { SeatAgent, SeatDecision } from '../../../src/agents/seat/types.js';
import type { Budget, Window } from '../../../src/protocol/index.js';
import { anthropicProvider } from '../../../src/providers/anthropic.js';
import { openAiProvider } from '../../../src/providers/openai.js';
import type { Provider } from '../../../src/providers/types.js';
import { startFakeLlmServer, unusedPortUrl, type FakeLlmServer } from '../../providers/fake-llm-server.js';
import { ANTHROPIC, OPENAI, PRICES, attackAnswer, tableOfSeven, type Wire } from './llm-contract-support.js';
import { camelKeys, requestsOfEveryWindow } from './window-requests.js';

const CAP = 600;
const BUDGETS: { decision: Budget; game: Budget } = { decision: { wall_ms: 120_000 }, game: {} };
const WINDOWS = requestsOfEveryWindow();
const { action } = tableOfSeven();
const ATTACK = attackAnswer(action.request);

/** The same answer with a card or player id that is nowhere in the request, per window. */
const MADE_UP: Record<Window, (a: Record<string, unknown>) => Record<string, unknown>> = {
  intent: (a) => ({ ...a, emotional_intent: { emotion: 'fear', target_player_id: 'plr_9' } }),
  talk: (a) => ({ speech_actions: [{ ...(a['speech_actions'] as object[])[0], channel: 'private', target_player_id: 'plr_9' }] }),
  action: (a) => ({ ...a, selected_action: { kind: 'play_card', payload: { card_id: 'card_999' } } }),
  reaction: () => ({ card_id: 'card_999' }),
  reflect: (a) => ({ ...a, player_id: 'plr_9' }),
};

let server: FakeLlmServer;
let sleeps: number[];
beforeEach(async () => {
  server = await startFakeLlmServer();
  sleeps = [];
});
afterEach(() => server.close());

function seatOn(wire: Wire, o: { baseUrl?: string; budgets?: typeof BUDGETS; outageDecisions?: number } = {}): SeatAgent {
  const base = o.baseUrl ?? server.url;
  const providers = new Map<string, Provider>([
    ['openai', openAiProvider({ baseUrl: `${base}/v1`, apiKey: 'sk-test', prices: PRICES })],
    ['anthropic', anthropicProvider({ baseUrl: base, apiKey: 'ak-test', prices: PRICES })],
  ]);
  return llmSeat(`llm:${wire.provider}:${wire.model}`, { gameSeed: 7, seat: 0, trace: true }, {
    providers,
    chain: [{ provider: wire.provider, model: wire.model }],
    budgets: o.budgets ?? BUDGETS,
    maxOutputTokens: CAP,
    deadlineMs: 2_000,
    skillDir: LLM_SKILL_DIR,
    ...(o.outageDecisions ? { outageDecisions: o.outageDecisions } : {}),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
  });
}

const statuses = (d: SeatDecision) => d.calls?.map((c) => c.status);
const verifies = (d: SeatDecision) => (d.trace?.stages ?? []).filter((s) => s.stage === 'verify').map((s) => s.payload);
const lastUserTurn = (wire: Wire, i: number) => wire.conversation(server.requests[i]!.body).at(-1)?.content ?? '';

describe.each([OPENAI, ANTHROPIC])('the LLM seat on $label', (wire) => {
  it.each([...WINDOWS.keys()])('given camelCase keys in the %s window, then the repair turn names the unknown key and its snake_case spelling, and the repaired answer is taken: calls [ok, ok]', async (window) => {
    const { request, answer } = WINDOWS.get(window)!;
    server.reply({ body: wire.answer(camelKeys(answer), window) }, { body: wire.answer(answer, window) });

    const d = await seatOn(wire).decide(request);

    expect(statuses(d)).toEqual(['ok', 'ok']);
    expect(d.decision).toEqual(answer);
    expect(verifies(d)[0]).toMatchObject({ valid: false, rule: 'unknown_key' });
    expect(lastUserTurn(wire, 1)).toMatch(/unknown key `[a-z]+[A-Z]\w*` at .*\(did you mean `[a-z_]+`\?\); allowed keys there: /);
  });

  it.each([...WINDOWS.keys()])('given a made-up card or player id in the %s window, then the repair turn names it and the ids allowed, and the repaired answer is taken', async (window) => {
    const { request, answer } = WINDOWS.get(window)!;
    server.reply({ body: wire.answer(MADE_UP[window](answer), window) }, { body: wire.answer(answer, window) });

    const d = await seatOn(wire).decide(request);

    expect(d.decision).toEqual(answer);
    expect(verifies(d)[0]).toMatchObject({ valid: false, rule: 'unknown_id' });
    expect(lastUserTurn(wire, 1)).toMatch(/`(plr_9|card_999)` at [\w.]+ is not (a card in this request|a player at this table)/);
  });

  it('given an enum value in the wrong case, then the repair names the exact spelling (rule enum_case)', async () => {
    const { request, answer } = WINDOWS.get('intent')!;
    const shouting = { ...answer, tactical_intent: String(answer['tactical_intent']).toUpperCase() };
    server.reply({ body: wire.answer(shouting, 'intent') }, { body: wire.answer(answer, 'intent') });

    const d = await seatOn(wire).decide(request);

    expect(d.decision).toEqual(answer);
    expect(verifies(d)[0]).toMatchObject({ rule: 'enum_case' });
    expect(lastUserTurn(wire, 1)).toContain(`must be spelled exactly \`${String(answer['tactical_intent'])}\``);
  });

  it('given a model that stays sloppy after the repair, then there is no decision, and the failure code names the rule', async () => {
    const { request, answer } = WINDOWS.get('talk')!;
    server.reply({ body: wire.answer(camelKeys(answer), 'talk') }, { body: wire.answer(camelKeys(answer), 'talk') });

    const d = await seatOn(wire).decide(request);

    expect(d.decision).toBeUndefined();
    expect(d.trace?.failure).toMatchObject({ code: 'llm/unknown_key', message: expect.stringContaining('unknown key `speechActions`') });
  });

  it("given the wire's refusal, then one repair turn restates the game and the answer after it is taken: calls [refused, ok]", async () => {
    server.reply({ body: wire.refusal() }, { body: wire.answer(ATTACK, 'action') });

    const d = await seatOn(wire).decide(action.request);

    expect(statuses(d)).toEqual(['refused', 'ok']);
    expect(d.decision).toEqual(ATTACK);
    expect(lastUserTurn(wire, 1)).toContain('fictional card game');
    expect(verifies(d)[0]).toMatchObject({ rule: 'refusal' });
  });

  it('given a refusal in plain words, then it is treated as a refusal (not as bad JSON) and repaired the same way', async () => {
    server.reply({ body: wire.text("I'm sorry, but I can't help with manipulating other players.") }, { body: wire.answer(ATTACK, 'action') });

    const d = await seatOn(wire).decide(action.request);

    expect(d.decision).toEqual(ATTACK);
    expect(verifies(d)[0]).toMatchObject({ rule: 'refusal' });
    expect(lastUserTurn(wire, 1)).toContain('fictional card game');
  });

  it('given a burst of three 429s with retry-after: 2, then the seat waits them out inside the decision budget: calls [rate_limited ×3, ok], waits [2000 ×3]', async () => {
    const limited = { status: 429, headers: { 'retry-after': '2' }, body: wire.error('Rate limit reached') };
    server.reply(limited, limited, limited, { body: wire.answer(ATTACK, 'action') });

    const d = await seatOn(wire).decide(action.request);

    expect(statuses(d)).toEqual(['rate_limited', 'rate_limited', 'rate_limited', 'ok']);
    expect(sleeps).toEqual([2000, 2000, 2000]);
    expect(d.decision).toEqual(ATTACK);
  });

  it('given 429s past what the decision budget has left, then it stops waiting once the next wait would not fit: 3 attempts in a 5 s budget', async () => {
    const limited = { status: 429, headers: { 'retry-after': '2' }, body: wire.error('Rate limit reached') };
    server.reply(limited, limited, limited, limited);

    const d = await seatOn(wire, { budgets: { decision: { wall_ms: 5_000 }, game: {} } }).decide(action.request);

    expect(statuses(d)).toEqual(['rate_limited', 'rate_limited', 'rate_limited']);
    expect(sleeps).toEqual([2000, 2000]);
    expect(d.trace?.failure?.message).toContain('HTTP 429');
  });

  it('given an answer far over the output cap, then it is cut at the cap, the cut is recorded on its call and in the trace, and the repair turn asks again', async () => {
    const huge = { ...ATTACK, reasoning: 'because '.repeat(2_000) };
    server.reply({ body: wire.answer(huge, 'action', { output: 4_000 }) }, { body: wire.answer(ATTACK, 'action') });

    const d = await seatOn(wire).decide(action.request);

    expect(d.decision).toEqual(ATTACK);
    expect(d.calls?.[0]?.error).toMatch(/^truncated: the reply \(4000 output tokens, \d+ chars\) is over the output cap of 600 tokens; cut at 3600 chars/);
    expect(verifies(d)[0]).toMatchObject({ rule: 'truncated' });
    expect((d.trace?.stages ?? []).some((s) => s.stage === 'observe' && s.payload['rule'] === 'truncated')).toBe(true);
  });

  it('given any call, then its act stage is sourced to the real provider, not a mock', async () => {
    server.reply({ body: wire.answer(ATTACK, 'action') });
    const d = await seatOn(wire).decide(action.request);
    const acts = (d.trace?.stages ?? []).filter((s) => s.stage === 'act');
    expect(acts.map((s) => s.source)).toEqual([wire.provider]);
  });

  it('given a dead endpoint, then each decision fails as provider/unavailable naming "connection refused", and the Nth in a row as provider/down', async () => {
    const seat = seatOn(wire, { baseUrl: await unusedPortUrl(), outageDecisions: 2 });

    const first = await seat.decide(action.request);
    const second = await seat.decide(action.request);

    expect(first.trace?.failure).toMatchObject({ code: 'provider/unavailable', message: expect.stringContaining('connection refused') });
    expect(second.trace?.failure).toMatchObject({ code: 'provider/down', message: expect.stringMatching(/failed for 2 decisions in a row \(last: .*connection refused/) });
    expect(second.trace?.health).toBe('permanentFailure');
  });
});
